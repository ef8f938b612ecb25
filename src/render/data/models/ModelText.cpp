#include "ModelText.h"

#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"

using namespace Qt::StringLiterals;

namespace posenc::ModelText {

namespace {

QString mixerWords(const QString &encoding)
{
    if (encoding == u"linear"_s)
        return u"linear attention, no position"_s;
    if (encoding == u"ssm"_s)
        return u"Mamba (SSM), no position"_s;
    if (encoding == u"conv"_s)
        return u"short convolution, no position"_s;
    return u"MLP only, no mixing"_s;
}

} // namespace

bool isMixer(const QString &encoding)
{
    return encoding == u"linear"_s || encoding == u"ssm"_s || encoding == u"conv"_s || encoding == u"mlp"_s;
}

QString position(const ConfigLayer &layer)
{
    const QString encoding = layer.scheme.encoding;
    if (isMixer(encoding))
        return mixerWords(encoding);
    // A rotary layer's words name the columns of the config's head that turn (FamilyCheck::rotary).
    const FamilyCheck &check = FamilyChecks::of(layer.params.encoding);
    if (check.rotary)
        return check.rotary->words(layer);
    return check.layerWords ? check.layerWords(layer.params) : Families::spec(layer.params.encoding).heading;
}

QString span(const ConfigLayer &layer)
{
    const LayerScheme &s = layer.scheme;
    if (isMixer(s.encoding))
        return {};
    if (s.window)
        return s.windowBothSides ? u"window %1 each side"_s.arg(*s.window) : u"window %1"_s.arg(*s.window);
    if (s.chunk)
        return u"chunks of %1"_s.arg(*s.chunk);
    return u"whole context"_s;
}

QString query(const LayerScheme &scheme)
{
    const QueryScale &q = scheme.query;
    switch (q.kind) {
    case QueryScale::Kind::None:
        return {};
    case QueryScale::Kind::Temperature:
        return u"q × (1 + %1 ln(⌊(p + 1) / %2⌋ + 1))"_s.arg(NumberText::compact(q.scale, 4)).arg(q.length);
    case QueryScale::Kind::Beta:
        return u"q × (1 + %1 ln(1 + ⌊p / %2⌋))"_s.arg(NumberText::compact(q.scale, 4)).arg(q.length);
    }
    return {};
}

QString terse(const ConfigLayer &layer)
{
    const LayerScheme &s = layer.scheme;
    QStringList parts;
    if (isMixer(s.encoding))
        parts.append(s.encoding);
    else if (const FamilyCheck &check = FamilyChecks::of(layer.params.encoding); check.rotary)
        parts.append(check.rotary->terse(layer));
    else
        parts.append(check.layerTerse.isEmpty() ? Families::word(layer.params.encoding) : check.layerTerse);
    // A bidirectional window reaches `window` each side (ModernBERT's local_attention 128 is 64
    // each side), which "win 64" alone read as 64 back.
    if (s.window)
        parts.append((s.windowBothSides ? u"win ±%1"_s : u"win %1"_s).arg(*s.window));
    if (s.chunk)
        parts.append(u"chunk %1"_s.arg(*s.chunk));
    if (!s.query.isNone())
        parts.append(u"q scaled"_s);
    return parts.join(u" · "_s);
}

QString layerNotes(const ConfigCheck &check)
{
    std::int64_t total = 0;
    std::int64_t turning = 0;
    std::int64_t nope = 0;
    std::int64_t mixers = 0;
    for (const ConfigLayer &l : check.layers) {
        const auto n = std::int64_t(l.layers.size());
        total += n;
        const FamilySpec &spec = Families::spec(l.params.encoding);
        if (FamilyChecks::of(l.params.encoding).rotary)
            turning += n;
        else if (isMixer(l.scheme.encoding))
            mixers += n;
        else if (!spec.placesPosition())
            nope += n;
    }
    if (turning == 0 && nope == 0)
        return {};
    QStringList parts {u"%1 of %2 layers turn (RoPE)"_s.arg(turning).arg(total)};
    if (nope > 0)
        parts.append(u"%1 attend without position (NoPE)"_s.arg(nope));
    if (mixers > 0)
        parts.append(u"%1 mix without attention"_s.arg(mixers));
    if (check.basis == u"guess"_s)
        parts.append(u"model_type unknown: a guess by Llama's rules"_s);
    return parts.join(u"; "_s);
}

} // namespace posenc::ModelText
