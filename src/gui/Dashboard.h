#pragma once

#include <QList>
#include <QWidget>

class QGridLayout;

namespace posenc {

class PlotView;

// The views in a 2 x 2 grid, all visible at once; any one can fill the grid and come back.
class Dashboard : public QWidget
{
    Q_OBJECT

public:
    explicit Dashboard(const QList<PlotView *> &views, QWidget *parent = nullptr);

    const QList<PlotView *> &views() const { return m_views; }
    PlotView *maximized() const { return m_maximized; }
    // Shows `view` alone, or every view again when it is already alone.
    void toggleMaximized(PlotView *view);

private:
    QList<PlotView *> m_views;
    PlotView *m_maximized = nullptr;
};

} // namespace posenc
