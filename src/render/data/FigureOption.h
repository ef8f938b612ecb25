#pragma once

#include "core/ParamError.h"
#include "core/Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

namespace posenc {

// One option a figure takes besides the parameters: the command line's --KEY, a control in the
// title bar of the window's view, a key of the figure's state in a session.
struct FigureOption
{
    enum class Kind {
        Choice, // one of `choices`
        Text, // free text the figure checks itself ("0,1,64:66")
        Switch, // "true" or "false"; on the command line a flag without a value
    };

    QString key;
    Kind kind = Kind::Text;
    QString valueName; // for --help: "pe|embedding|...", "LIST"
    QString help; // for --help and the control's tooltip
    QString defaultText; // what an option not given reads as
    QStringList choices; // Choice: the texts, in the order the window lists them
    QStringList choiceLabels; // Choice: what the window's list shows for each (the texts when empty)
    // Choice: other names of a choice, {alias, choice}, taken where a choice is typed (matplotlib's
    // RdBu_r for the diverging map, which is its table).
    QList<std::pair<QString, QString>> aliases;
    // Choice: the label of a choice under the parameters, where it follows them (X is s·E alone
    // without a position term); choiceLabels when empty.
    std::function<QString(const QString &choice, const Params &params)> choiceLabelFor;
    // Choice: whether a choice applies to the parameters (a quantity their family has); every
    // choice when unset. The window lists only those that do.
    std::function<bool(const QString &choice, const Params &params)> choiceAvailable;
    bool inWindow = true; // has a control in the view's title bar (--positions has not: zoom does it)
    bool redrawsOnly = false; // a change is drawn from the data on screen, without computing (a colormap)
    bool resetsView = false; // a change shows the figure's default view (another quantity, another table)

    // Why `text` is not a value of this option (a choice not listed, a switch not true/false);
    // Text options are checked by their figure.
    std::optional<ParamError> refusal(const QString &text) const;
    // The choice an alias names, else `text` as it is.
    QString canonical(const QString &text) const;
};

} // namespace posenc
