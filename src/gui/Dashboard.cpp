#include "Dashboard.h"

#include "PlotView.h"

#include <QGridLayout>

namespace posenc {

Dashboard::Dashboard(const QList<PlotView *> &views, QWidget *parent)
    : QWidget(parent)
    , m_views(views)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    for (qsizetype i = 0; i < views.size(); ++i) {
        grid->addWidget(views[i], static_cast<int>(i / 2), static_cast<int>(i % 2));
        connect(views[i], &PlotView::maximizeRequested, this, [this, view = views[i]] { toggleMaximized(view); });
    }
}

void Dashboard::toggleMaximized(PlotView *view)
{
    m_maximized = m_maximized == view ? nullptr : view;
    for (PlotView *v : m_views)
        v->setVisible(!m_maximized || v == m_maximized);
}

} // namespace posenc
