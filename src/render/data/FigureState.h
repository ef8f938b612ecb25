#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <optional>

namespace posenc {

// A continuous range of an axis in table units (a zoomed view shows parts of cells).
struct ViewRange
{
    double lower = 0.0;
    double upper = 0.0;

    double size() const { return upper - lower; }
    friend bool operator==(const ViewRange &, const ViewRange &) = default;
};

// What a figure shows besides the parameters (docs/ARCHITECTURE.md, "One descriptor per
// figure"): its options as text by key (the command line's flag without dashes, also the
// session's key) and the ranges its axes show, by axis key. A value, owned by whoever shows the
// figure (a view of the window, an export); a figure reads an option it is not given as its
// default and an axis it is not given at its default view.
//
// In a session: {"figure": "heatmap", "quantity": "pe", "positions": [-0.5, 1023.5], ...}.
struct FigureState
{
    QMap<QString, QString> options;
    QMap<QString, ViewRange> view;

    QString option(const QString &key, const QString &fallback = {}) const { return options.value(key, fallback); }
    std::optional<ViewRange> range(const QString &axis) const;

    // Options as strings, ranges as [lower, upper].
    QJsonObject toJson() const;
    // The options and ranges of a session's figure object; anything else ("figure", a range that
    // is not two finite increasing numbers) is left out, as a view state is a convenience.
    static FigureState fromJson(const QJsonObject &json);

    friend bool operator==(const FigureState &, const FigureState &) = default;
};

} // namespace posenc
