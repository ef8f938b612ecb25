#include "Dashboard.h"

#include "FigureView.h"

#include <QGridLayout>

namespace posenc {

Dashboard::Dashboard(const QList<FigureView *> &views, QWidget *parent)
    : QWidget(parent)
    , m_views(views)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    for (qsizetype i = 0; i < views.size(); ++i) {
        grid->addWidget(views[i], static_cast<int>(i / 2), static_cast<int>(i % 2));
        connect(views[i], &FigureView::maximizeRequested, this, [this, view = views[i]] { toggleMaximized(view); });
    }
}

void Dashboard::toggleMaximized(FigureView *view)
{
    m_maximized = m_maximized == view ? nullptr : view;
    for (FigureView *v : m_views)
        v->setVisible(!m_maximized || v == m_maximized);
}

} // namespace posenc
