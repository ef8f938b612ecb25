#include "Dashboard.h"

#include "FigureView.h"

#include <QGridLayout>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

struct GridShape
{
    Dashboard::Arrangement arrangement;
    QString name;
    int rows;
    int columns;
};

const QList<GridShape> &grids()
{
    static const QList<GridShape> list = {
        {Dashboard::Arrangement::One, u"1x1"_s, 1, 1},
        {Dashboard::Arrangement::SideBySide, u"1x2"_s, 1, 2},
        {Dashboard::Arrangement::Stacked, u"2x1"_s, 2, 1},
        {Dashboard::Arrangement::Grid, u"2x2"_s, 2, 2},
    };
    return list;
}

const GridShape &gridOf(Dashboard::Arrangement arrangement)
{
    for (const GridShape &shape : grids()) {
        if (shape.arrangement == arrangement)
            return shape;
    }
    return grids().back();
}

} // namespace

Dashboard::Dashboard(const QList<FigureView *> &views, QWidget *parent)
    : QWidget(parent)
    , m_views(views)
{
    for (FigureView *view : m_views) {
        view->setParent(this);
        connect(view, &FigureView::maximizeRequested, this, [this, view] { toggleMaximized(view); });
    }
    layOut();
}

QList<FigureView *> Dashboard::arrangedViews() const
{
    return m_views.mid(0, viewCount(m_arrangement));
}

void Dashboard::toggleMaximized(FigureView *view)
{
    m_maximized = m_maximized == view ? nullptr : view;
    layOut();
}

void Dashboard::setArrangement(Arrangement arrangement)
{
    const bool changed = arrangement != m_arrangement;
    m_arrangement = arrangement;
    m_maximized = nullptr;
    layOut();
    if (changed)
        emit arrangementChanged(arrangement);
}

// A fresh grid each time: a QGridLayout keeps the stretch of rows and columns it once had.
void Dashboard::layOut()
{
    delete layout();
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    const QList<FigureView *> shown = m_maximized ? QList<FigureView *> {m_maximized} : arrangedViews();
    const int columns = m_maximized ? 1 : gridOf(m_arrangement).columns;
    for (FigureView *view : m_views)
        view->setVisible(shown.contains(view));
    for (qsizetype i = 0; i < shown.size(); ++i)
        grid->addWidget(shown[i], static_cast<int>(i / columns), static_cast<int>(i % columns));
    // The views share the room equally, whatever their figures ask for.
    for (int column = 0; column < columns; ++column)
        grid->setColumnStretch(column, 1);
    for (int row = 0; row < grid->rowCount(); ++row)
        grid->setRowStretch(row, 1);
}

QString Dashboard::toString(Arrangement arrangement)
{
    return gridOf(arrangement).name;
}

std::optional<Dashboard::Arrangement> Dashboard::arrangementFrom(const QString &text)
{
    for (const GridShape &shape : grids()) {
        if (shape.name == text)
            return shape.arrangement;
    }
    return std::nullopt;
}

QStringList Dashboard::arrangementNames()
{
    QStringList names;
    for (const GridShape &shape : grids())
        names.append(shape.name);
    return names;
}

int Dashboard::viewCount(Arrangement arrangement)
{
    const GridShape &shape = gridOf(arrangement);
    return shape.rows * shape.columns;
}

} // namespace posenc
