#pragma once

#include "Params.h"
#include "Quantity.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>
#include <utility>

// Which encoding family a command means when it names none (docs/ARCHITECTURE.md, Command line,
// "A family inferred"): each thing given that only some families have (a family's parameter, a
// figure, a quantity) is a clue, and the family every clue fits is the one meant. The families,
// their parameters and quantities come from the registries (Families, each row's `family`, each
// quantity's `missing`), never from a list of their own.
namespace posenc::FamilyInference {

// One thing given that some families have and others lack: `what` in the words of the front
// end ("--rope-theta", "FIGURE alibi-slopes"), and whether a family has it, asked of the
// parameters with that family's encoding.
struct Clue
{
    Clue(QString what, std::function<bool(const Params &)> fits, std::optional<Encoding> owner = std::nullopt)
        : what(std::move(what))
        , fits(std::move(fits))
        , owner(owner)
    { }

    QString what;
    std::function<bool(const Params &)> fits;
    // A parameter's: the family whose row it is, which the clues choose where other families
    // read the row too (FamilySpec::borrows: --head-dim alone is RoPE's).
    std::optional<Encoding> owner;
};

// Every family, in the order of FamilyList.h (the encoding row's words').
QList<Encoding> families();
// The family's word: "rope".
QString word(Encoding family);
// The families of `clue` among `families()`, asked of `params` with each family's encoding.
QList<Encoding> familiesOf(const Clue &clue, const Params &params);

// A parameter as a clue: the family its row belongs to and the families that borrow the row.
// Nothing for a key every family reads (d-model) or that is not a row.
std::optional<Clue> parameterClue(const QString &key, const QString &what);
// A quantity as a clue: the families under which the parameters have its table.
Clue quantityClue(Quantity quantity, const QString &what);

struct Outcome
{
    // The family the clues choose: `params.encoding` when every clue fits it, else the one family
    // every clue fits, or of several the one that owns a parameter given. Nothing when no family
    // fits them all, or more than one does.
    std::optional<Encoding> family;
    // When there is no family: the families every clue fits (none, or several to choose from).
    QList<Encoding> candidates;
};

// The family of `clues`, starting from `params` (whose encoding is kept where it fits).
Outcome infer(const Params &params, const QList<Clue> &clues);

} // namespace posenc::FamilyInference
