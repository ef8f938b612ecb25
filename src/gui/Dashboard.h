#pragma once

#include <QList>
#include <QWidget>

class QGridLayout;

namespace posenc {

class FigureView;

// The views of the window in a grid (two columns), all visible at once; any one can fill the
// grid and come back. Each view can show any figure.
class Dashboard : public QWidget
{
    Q_OBJECT

public:
    explicit Dashboard(const QList<FigureView *> &views, QWidget *parent = nullptr);

    const QList<FigureView *> &views() const { return m_views; }
    FigureView *maximized() const { return m_maximized; }
    // Shows `view` alone, or every view again when it is already alone.
    void toggleMaximized(FigureView *view);

private:
    QList<FigureView *> m_views;
    FigureView *m_maximized = nullptr;
};

} // namespace posenc
