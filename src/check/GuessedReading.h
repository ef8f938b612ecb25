#pragma once

#include "check/TableMatch.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

// A reference read from a model config by guess (docs/ARCHITECTURE.md, Checking a table, "A
// declared reference"): a model_type posenc's table lacks is read by Llama's rules (or the nearest
// known model's), and a number no key of the file holds (its pairing, its rotary_dim, its theta) is
// then the guess of another model's code, not this model's (ConfigSources: "guess ..."). A check
// against such a reading says `correct` or `mistake` only where every parameter its verdict rests
// on was read from keys the config has; otherwise the verdict is at most `variant` (the table
// equals the guessed reading) or `unknown` (it differs from it), the guess said.
namespace posenc::GuessedReading {

// Where each number of a config's layer comes from (ConfigLayer::sources): "rope_theta" -> "key
// text_config.rope_theta", "rope_layout" -> "guess models/llama/modeling_llama.py (...)".
using Sources = QList<std::pair<QString, QString>>;

// The numbers of the rotary reading (ConfigLayer::sources' keys) a verdict rests on: for a
// mistake named `id`, the parameters it names (rope-theta: rope_theta; rope-layout: rope_layout);
// none for a mistake the tensor shows on its own (rope-layout-swapped: its table and rotation
// disagree; a position's mistakes); every one for a mistake posenc does not map, or none named.
QStringList decidedBy(const QString &id);

// What a verdict checked against a reading of `config` with `sources` may say. Unchanged where
// nothing it rests on is a guess (a note then says which keys decided it); else `correct` becomes
// `variant` and `mistake` becomes `unknown`, the mistakes moved into the diagnosis with the guessed
// numbers and their sources. True where the verdict was capped.
struct Verdict
{
    CheckVerdict &verdict;
    QStringList &mistakes;
    QString &diagnosis;
    QStringList &notes;
};
bool cap(Verdict v, const Sources &sources, const QString &config);

// A rotary_dim's source in a sentence: "the config's partial_rotary_factor 0.5" where a key of the
// config gave it, else "partial_rotary_factor 1, which the config does not hold (guess ...)".
QString rotaryDimSource(const Sources &sources, double partialRotaryFactor);

} // namespace posenc::GuessedReading
