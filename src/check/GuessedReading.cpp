#include "GuessedReading.h"

#include "check/models/ConfigSources.h"

#include <QHash>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::GuessedReading {

namespace {

// The numbers of a config's rotary layer a reference is computed from (ConfigSources' keys).
const QStringList &rotaryKeys()
{
    static const QStringList keys {u"rope_theta"_s, u"rotary_dim"_s,  u"rotary_place"_s,
                                   u"rope_type"_s,  u"rope_layout"_s, u"attention_factor"_s};
    return keys;
}

QString sourceOf(const Sources &sources, const QString &key)
{
    for (const auto &[k, source] : sources) {
        if (k == key)
            return source;
    }
    return {};
}

// "rope_layout (guess models/llama/modeling_llama.py (...))", one per key.
QString listed(const Sources &sources, const QStringList &keys)
{
    QStringList words;
    for (const QString &key : keys)
        words.append(u"%1 (%2)"_s.arg(key, sourceOf(sources, key)));
    return words.join(u"; "_s);
}

} // namespace

QStringList decidedBy(const QString &id)
{
    // What the tensor shows on its own: a table and a rotation of different pairs, a rotation the
    // wrong way, positions (each row's against the ids or the prompt), none of which a reading's
    // numbers decide.
    static const QSet<QString> alone {u"rope-layout-swapped"_s,
                                      u"rotation-reversed"_s,
                                      u"rotation-sign-lost"_s,
                                      u"sin-cos-swapped"_s,
                                      u"position-offset"_s,
                                      u"positions-constant"_s,
                                      u"positions-out-of-order"_s,
                                      u"positions-scaled"_s,
                                      u"arange-with-padding"_s,
                                      u"rope-not-applied"_s,
                                      u"same-row"_s,
                                      u"transposed"_s,
                                      u"mrope-ids-differ"_s,
                                      u"mrope-ids-offset"_s,
                                      u"mrope-1d-positions"_s,
                                      u"mrope-rope-deltas-lost"_s,
                                      u"mrope-time-truncated"_s,
                                      u"mrope-axes-swapped"_s,
                                      u"cells-overwritten"_s,
                                      u"cells-offset"_s,
                                      u"cells-shifted"_s,
                                      u"sign-flipped"_s};
    if (alone.contains(id))
        return {};
    static const QHash<QString, QStringList> named {
        {u"rope-theta"_s, {u"rope_theta"_s}},
        {u"rotary-dim"_s, {u"rotary_dim"_s}},
        {u"rotary-dim-exponent"_s, {u"rotary_dim"_s}},
        {u"rotary-part-misplaced"_s, {u"rotary_dim"_s, u"rotary_place"_s}},
        {u"rope-layout"_s, {u"rope_layout"_s}},
        {u"rope-output-deinterleaved"_s, {u"rope_layout"_s}},
        {u"rope-output-interleaved"_s, {u"rope_layout"_s}},
        {u"attention-factor"_s, {u"attention_factor"_s, u"rope_type"_s}},
        {u"attention-factor-missing"_s, {u"attention_factor"_s, u"rope_type"_s}},
        {u"rope-applied-twice"_s, {u"rope_theta"_s, u"rope_type"_s}},
    };
    if (const auto it = named.constFind(id); it != named.cend())
        return *it;
    // The scaling's parameters: read from the rope dict with its type.
    static const QSet<QString> scaling {
        u"rope-type"_s,           u"rope-factor"_s,    u"original-max-len"_s,     u"beta-fast"_s,
        u"beta-slow"_s,           u"dynamic-length"_s, u"low-freq-factor"_s,      u"high-freq-factor"_s,
        u"longrope-factor-set"_s, u"yarn-truncate"_s,  u"rope-scaling-reversed"_s};
    if (scaling.contains(id) || id.startsWith(u"longrope-"_s))
        return {u"rope_type"_s};
    return rotaryKeys();
}

bool cap(Verdict v, const Sources &sources, const QString &config)
{
    if (v.verdict != CheckVerdict::Correct && v.verdict != CheckVerdict::Mistake)
        return false;
    QStringList deciding;
    if (v.verdict == CheckVerdict::Correct || v.mistakes.isEmpty())
        deciding = rotaryKeys();
    for (const QString &id : v.mistakes) {
        for (const QString &key : decidedBy(id)) {
            if (!deciding.contains(key))
                deciding.append(key);
        }
    }
    // Only the numbers the reading has (a layer without RoPE has none of these).
    deciding.erase(std::remove_if(deciding.begin(), deciding.end(),
                                  [&](const QString &key) { return sourceOf(sources, key).isEmpty(); }),
                   deciding.end());
    QStringList guessed;
    for (const QString &key : rotaryKeys()) {
        if (deciding.contains(key) && ConfigSources::isGuess(sourceOf(sources, key)))
            guessed.append(key);
    }
    if (guessed.isEmpty()) {
        // A reading with guesses elsewhere: the verdict stands on what the config holds, said.
        const bool anyGuess = std::any_of(sources.cbegin(), sources.cend(),
                                          [](const auto &s) { return ConfigSources::isGuess(s.second); });
        if (anyGuess && !deciding.isEmpty())
            v.notes.append(u"%1 is partly read by guess, but this verdict rests only on numbers it holds: %2"_s.arg(
                config, listed(sources, deciding)));
        return false;
    }
    const QString guess = u"%1 is read by guess, so the reference's %2 are not the model's code but another's: "
                          "%3 (posenc check --config %1 says where each number comes from; declare them with "
                          "--expect rope or --encoding and their flags to check against them)"_s.arg(
                              config, guessed.join(u", "_s), listed(sources, guessed));
    if (v.verdict == CheckVerdict::Correct) {
        v.verdict = CheckVerdict::Variant;
        v.diagnosis = u"equals the reading of %1, which is a guess: %2"_s.arg(config, guess);
        return true;
    }
    const QString found
        = v.mistakes.isEmpty() ? u"deviates from it"_s : u"differs from it as %1"_s.arg(v.mistakes.join(u", "_s));
    v.notes.prepend(u"against the guessed reading: "_s + v.diagnosis);
    v.diagnosis = u"unknown against the reading of %1: the tensor %2, but %3"_s.arg(config, found, guess);
    v.verdict = CheckVerdict::Unknown;
    v.mistakes.clear();
    return true;
}

QString rotaryDimSource(const Sources &sources, double partialRotaryFactor)
{
    const QString source = sourceOf(sources, u"rotary_dim"_s);
    const QString factor = QString::number(partialRotaryFactor);
    const bool keyed = source.startsWith(u"key "_s)
        && (source.contains(u"partial_rotary_factor"_s) || source.contains(u"rotary_pct"_s)
            || source.contains(u"rotary_dim"_s));
    if (keyed)
        return u"the config's partial_rotary_factor %1"_s.arg(factor);
    return u"partial_rotary_factor %1, which the config does not hold (rotary_dim: %2)"_s.arg(
        factor, source.isEmpty() ? u"the default"_s : source);
}

} // namespace posenc::GuessedReading
