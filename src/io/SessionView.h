#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace posenc {

// The dashboard's part of a session's "view" (docs/ARCHITECTURE.md, Lessons): how many views it
// shows and how ("layout", rows x columns), the figure each view shows with its state, and the
// maximised view. The window reads and writes it (DashboardState), a lesson names its main
// figure from it and `posenc export --lesson` takes a figure's state from it.
//
//   {"layout": "1x2",
//    "views": [{"figure": "heatmap", "quantity": "input", "columns": [3.5, 20.5], ...}, ...],
//    "maximized": 0}
//
// The rest of "view" is other parts' (the window's tab, the learned view's switch): read() leaves
// it out and write() keeps it. Sessions saved before the dashboard had layouts showed four views
// ("views" without "layout"); those saved before views could show any figure kept one object per
// figure instead of "views": {"heatmap": {...}, "curves": {"columns": "0,1", ...}}.
struct SessionView
{
    // A view: its figure's name and that figure's state (FigureState reads it: options as text,
    // ranges as [lower, upper]).
    struct Figure
    {
        QString name;
        QJsonObject state;

        friend bool operator==(const Figure &, const Figure &) = default;
    };

    std::optional<QString> layout; // "1x1", "1x2", "2x1", "2x2", as given; none when absent
    std::optional<QList<Figure>> views; // none when "views" is not a list
    int maximized = -1; // the index of the maximised view, -1 when none is
    QMap<QString, QJsonObject> byFigure; // the old form: a state by figure name

    // What `view` holds of the dashboard; anything unsound is left out, as a view state is a
    // convenience, not a parameter.
    static SessionView read(const QJsonObject &view);
    // `view` with the dashboard's part replaced by this one.
    QJsonObject write(QJsonObject view = {}) const;

    // The state of view `index`, or nothing when there is no such view.
    std::optional<Figure> figure(int index) const;

    friend bool operator==(const SessionView &, const SessionView &) = default;
};

} // namespace posenc
