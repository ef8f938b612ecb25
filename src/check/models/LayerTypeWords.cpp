#include "LayerTypeWords.h"

#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace Qt::StringLiterals;

namespace posenc::LayerTypeWords {

namespace {

// A RoPE setting in a lesson's sentence: a whole number grouped, another in prose, as every
// number a lesson states (NumberText::prose; RopeFamiliesLessonNumbers' settings likewise):
// StarCoder2's rope_theta 999999.4420358813 reads "999,999", not the title's "1e6".
QString settingInProse(double value)
{
    return value == std::floor(value) && std::abs(value) < 1e15 ? RopeText::number(value) : NumberText::prose(value, 4);
}

} // namespace

bool rotary(const ConfigLayer &l)
{
    return l.described && l.params.isValid() && FamilyChecks::of(l.params.encoding).rotary.has_value();
}

bool positionless(const ConfigLayer &l)
{
    return l.scheme.encoding == u"none"_s;
}

QString positionWords(const ConfigLayer &l)
{
    if (rotary(l)) {
        const RopeParams &rope = l.params.rope;
        QString what = u"turn with RoPE θ = %1"_s.arg(settingInProse(rope.theta));
        if (rope.type != RopeType::Default && rope.factor)
            what += u" (%1 ×%2)"_s.arg(RopeTypes::word(rope.type), settingInProse(*rope.factor));
        return what;
    }
    if (positionless(l))
        return u"have no position"_s;
    if (const auto family = Families::fromWord(l.scheme.encoding)) {
        const FamilySpec &spec = Families::spec(*family);
        // A term added to the input once (OPTLearnedPositionalEmbedding, BertEmbeddings): the layers
        // place nothing themselves.
        if (spec.kind == FamilyKind::Term) {
            QString what = spec.heading;
            if (what.size() > 1 && what.at(1).isLower())
                what[0] = what.at(0).toLower();
            return u"read the position a %1 added to their input"_s.arg(what);
        }
        return u"place position with %1"_s.arg(spec.heading);
    }
    return u"mix tokens without attention (%1)"_s.arg(l.scheme.encoding);
}

QString reachWords(const ConfigLayer &l)
{
    if (l.scheme.chunk)
        return u"attend within chunks of %1 positions"_s.arg(NumberText::count(*l.scheme.chunk));
    if (l.scheme.window)
        return u"attend within a window of %1 positions%2"_s.arg(NumberText::count(*l.scheme.window))
            .arg(l.scheme.windowBothSides ? u" each side (%1 wide)"_s.arg(NumberText::count(2 * *l.scheme.window))
                                          : QString());
    return l.scheme.headDim > 0 ? u"see the whole context"_s : QString();
}

QString layerTypes(const QList<const ConfigLayer *> &types)
{
    using Words = std::function<QString(const ConfigLayer &)>;
    // The clause every type shares, said once; none for a single type, whose one clause is its own.
    const auto shared = [&](const Words &words) {
        if (types.size() < 2)
            return QString();
        const QString first = words(*types.front());
        for (const ConfigLayer *l : types) {
            if (words(*l) != first)
                return QString();
        }
        return first;
    };
    const QString position = shared(positionWords), reach = shared(reachWords);
    QStringList parts;
    for (const ConfigLayer *l : types) {
        QStringList clauses;
        if (position.isEmpty())
            clauses.append(positionWords(*l));
        if (reach.isEmpty() && !reachWords(*l).isEmpty())
            clauses.append(reachWords(*l));
        // "input" names the embedding's term, not a kind of layer: its layers are counted plainly.
        const QString counted = l->layerType == u"input"_s ? u"%1 layers"_s.arg(l->layers.size())
                                                           : u"%1 %2 layers"_s.arg(l->layers.size()).arg(l->layerType);
        parts.append(clauses.isEmpty() ? counted : counted + u" "_s + clauses.join(u" and "_s));
    }
    // A part that joins its own clauses with "and" is closed by a comma before the list's "and":
    // "… attend within chunks of 8,192 positions, and 12 full_attention layers have no position".
    const bool clausesJoined
        = std::any_of(parts.cbegin(), parts.cend(), [](const QString &part) { return part.contains(u" and "_s); });
    QString text = parts.size() < 2
        ? parts.join(QString())
        : parts.mid(0, parts.size() - 1).join(u", "_s) + (clausesJoined ? u", and "_s : u" and "_s) + parts.constLast();
    QStringList common;
    for (const QString &clause : {position, reach}) {
        if (!clause.isEmpty())
            common.append(clause);
    }
    if (!common.isEmpty())
        text += u", and all "_s + common.join(u" and "_s);
    return text;
}

} // namespace posenc::LayerTypeWords
