#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

namespace posenc {

class FigureView;

// The views of the window, shown in one of a few arrangements: one view, two side by side, two
// stacked, or all four in a 2 x 2 grid; any one can fill the dashboard and come back. Each view
// can show any figure. Views the arrangement leaves out are hidden, keeping their figure.
class Dashboard : public QWidget
{
    Q_OBJECT

public:
    // Rows x columns of the views shown, the first views of the list in reading order.
    enum class Arrangement { One, SideBySide, Stacked, Grid };

    explicit Dashboard(const QList<FigureView *> &views, QWidget *parent = nullptr);

    const QList<FigureView *> &views() const { return m_views; }
    // The views the arrangement shows, whether or not one is maximised.
    QList<FigureView *> arrangedViews() const;
    FigureView *maximized() const { return m_maximized; }
    // Shows `view` alone, or the arranged views again when it is already alone.
    void toggleMaximized(FigureView *view);

    Arrangement arrangement() const { return m_arrangement; }
    // Lays the views out anew; a maximised view is restored.
    void setArrangement(Arrangement arrangement);

    // A session's words for the arrangements: "1x1", "1x2", "2x1", "2x2" (rows x columns).
    static QString toString(Arrangement arrangement);
    static std::optional<Arrangement> arrangementFrom(const QString &text);
    static QStringList arrangementNames();
    static int viewCount(Arrangement arrangement);

signals:
    void arrangementChanged(posenc::Dashboard::Arrangement arrangement);

private:
    void layOut();

    QList<FigureView *> m_views;
    FigureView *m_maximized = nullptr;
    Arrangement m_arrangement = Arrangement::Grid;
};

} // namespace posenc
