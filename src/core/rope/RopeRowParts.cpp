#include "RopeRowParts.h"

#include "RopeTypes.h"

#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeRowParts {

QString factorRange()
{
    return u"[%1, %2]"_s.arg(QString::number(kMinFactor), QString::number(kMaxFactor, 'f', 0));
}

QString number(double value)
{
    return NumberText::exact(value);
}

bool underRope(const Params &p)
{
    return p.encoding == Encoding::Rope;
}

std::pair<std::int64_t, std::int64_t> headDimBounds(const Params &p)
{
    const bool dOk = p.dModel >= 1 && p.dModel <= Params::kMaxDModel;
    const std::int64_t hi = underRope(p) && dOk ? std::min(RopeParams::kMaxHeadDim, p.dModel) : RopeParams::kMaxHeadDim;
    return {2, hi};
}

bool headDimValid(const Params &p)
{
    const auto [lo, hi] = headDimBounds(p);
    return p.rope.headDim >= lo && p.rope.headDim <= hi && p.rope.headDim % 2 == 0;
}

bool factorValid(const Params &p)
{
    return p.rope.partialRotaryFactor > 0.0 && p.rope.partialRotaryFactor <= 1.0;
}

std::int64_t minRotaryDim(RopeType type)
{
    return type == RopeType::Dynamic ? 4 : 2;
}

bool rotaryValid(const Params &p)
{
    if (!headDimValid(p) || !factorValid(p))
        return false;
    if (p.rope.type == RopeType::Proportional)
        return RopeFrequencies::livePairs(p.rope) >= 1;
    const std::int64_t r = RopeFrequencies::rotaryDim(p.rope);
    return r >= minRotaryDim(p.rope.type) && r % 2 == 0;
}

std::optional<IdleReason> ropeIdle(const Params &p)
{
    return ParamRows::otherEncoding(p, Encoding::Rope);
}

QString typeList(const QList<RopeType> &types)
{
    QStringList words;
    for (const RopeType t : types)
        words.append(RopeTypes::word(t));
    const QString last = words.takeLast();
    return words.isEmpty() ? last : tr("%1 and %2").arg(words.join(u", "_s), last);
}

std::optional<IdleReason> readBy(const Params &p, const QString &key)
{
    if (const auto idle = ropeIdle(p))
        return idle;
    if (RopeTypes::reads(p.rope.type, key))
        return std::nullopt;
    const QList<RopeType> types = RopeTypes::readers(key);
    return IdleReason {Code::OtherRopeType,
                       (types.size() == 1 ? tr("rope-type %1 does not read it; only %2 does.")
                                          : tr("rope-type %1 does not read it; %2 do."))
                           .arg(RopeTypes::word(p.rope.type), typeList(types))};
}

bool neededNow(const Params &p, const QString &key)
{
    return underRope(p) && RopeTypes::of(p.rope.type).needs.contains(key);
}

ParamError needed(const QString &key, const Params &p, const QString &what, const QString &allowed)
{
    return ParamError {key, allowed, u"is needed by rope-type %1: %2"_s.arg(RopeTypes::word(p.rope.type), what),
                       std::nullopt};
}

ParamSpec numberRow(QString key, QString valueName, std::function<double &(Params &)> field)
{
    ParamSpec s = ParamRows::numberRow(std::move(key), ParamGroup::Family, std::move(field));
    s.valueName = std::move(valueName);
    s.idle = ropeIdle;
    return s;
}

std::optional<ParamError> positive(const QString &key, double value, const QString &allowed)
{
    if (std::isfinite(value) && value > 0.0)
        return std::nullopt;
    return ParamError {key, allowed, QString(), number(value)};
}

QString positiveText()
{
    return u"a finite number > 0"_s;
}

std::optional<RopeFrequencies::Description> description(const Params &p)
{
    if (!underRope(p) || !p.isValid())
        return std::nullopt;
    return RopeFrequencies::describe(p);
}

} // namespace posenc::RopeRowParts
