#include "RelativeBuckets.h"

using namespace Qt::StringLiterals;

namespace posenc::RelativeBuckets {

LessonNumbers::Number whenValid(const Family &family, const Params &params,
                                const std::function<LessonNumbers::Number()> &value)
{
    if (!LessonNumbers::validUnder(params, family.encoding))
        return LessonNumbers::none(u"not here: %1's settings are not valid"_s.arg(family.name));
    return value();
}

LessonNumbers::Number bucketNumber(const Family &family, const Params &params, std::int64_t k)
{
    return whenValid(family, params, [&] { return LessonNumbers::integer(family.ofOffset(params, k)); });
}

ParamSpec limitRow(QString key, std::function<std::int64_t &(Params &)> field,
                   std::function<std::optional<std::int64_t>(const Params &)> floor, std::int64_t fallback,
                   QString floorName, std::function<QString(const Params &)> why)
{
    const auto bounds = [floor, fallback](const Params &p) {
        return std::pair<std::int64_t, std::int64_t>(floor(p).value_or(fallback) + 1, Params::kMaxLen);
    };
    const auto note = [floor, floorName, why](const Params &p) {
        const auto f = floor(p);
        return f ? u" (more than %1 = %2: %3)"_s.arg(floorName).arg(*f).arg(why(p)) : QString();
    };
    ParamSpec s = ParamRows::integer(std::move(key), ParamGroup::Family, std::move(field), bounds, note);
    s.controlMin = 0;
    s.controlMax = Params::kMaxLen;
    return s;
}

} // namespace posenc::RelativeBuckets
