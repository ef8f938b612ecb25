#include "RelativeBuckets.h"

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

namespace posenc::RelativeBuckets {

namespace {

// The words of the family's row `key` in its words file.
FamilyWords rowWords(const Family &family, const QString &key)
{
    return family.words.part(u"rows"_s).part(key);
}

// A row of the family's: labelled by its key ("t5_buckets"), idle under another encoding, its help
// and tooltip its words file's and, where `valid`, `now`.
ParamSpec own(const Family &family, ParamSpec s, std::function<QString(const Params &)> now,
              std::function<bool(const Params &)> valid)
{
    const FamilyWords words = rowWords(family, s.key);
    s.label = QString(s.key).replace(u'-', u'_');
    s.help = words.text(u"help"_s);
    s.controlMin = 0;
    s.idle = ParamRows::familyIdle(family.encoding);
    s.formula
        = [text = words.text(u"formula"_s), now, valid](const Params &p) { return valid(p) ? text + now(p) : text; };
    return s;
}

} // namespace

std::int64_t buckets(const Family &family, const Params &params)
{
    return family.settings.buckets(const_cast<Params &>(params));
}

std::int64_t limit(const Family &family, const Params &params)
{
    return family.settings.limit(const_cast<Params &>(params));
}

void setSettings(const Family &family, Params &params, std::int64_t buckets, std::int64_t limit)
{
    family.settings.buckets(params) = buckets;
    family.settings.limit(params) = limit;
}

bool bucketsValid(const Family &family, const Params &params)
{
    const Settings &s = family.settings;
    const std::int64_t n = buckets(family, params);
    return n >= s.leastBuckets(params) && n <= s.maxBuckets && (!s.evenBuckets(params) || n % 2 == 0);
}

void fillOffsets(const Family &family, const Params &params, std::int64_t first, std::int64_t count, float *out,
                 bool reversed)
{
    for (std::int64_t k = 0; k < count; ++k)
        out[k] = static_cast<float>(family.ofOffset(params, reversed ? -(first + k) : first + k));
}

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

ParamSpec bucketsRow(const Family &family, std::function<QString(const Params &)> now)
{
    const Settings &settings = family.settings;
    const FamilyWords words = rowWords(family, settings.bucketsKey);
    ParamSpec s = ParamRows::evenInteger(
        settings.bucketsKey, ParamGroup::Family, settings.buckets,
        [settings](const Params &p) {
            return std::pair<std::int64_t, std::int64_t>(settings.leastBuckets(p), settings.maxBuckets);
        },
        settings.evenBuckets, words.text(u"evenNote"_s), words.text(u"note"_s), words.text(u"whyEven"_s));
    s.controlMax = settings.maxBuckets;
    return own(family, std::move(s), std::move(now), [family](const Params &p) { return bucketsValid(family, p); });
}

ParamSpec limitRow(const Family &family, std::function<std::int64_t(std::int64_t buckets)> floor, std::int64_t fallback,
                   std::function<QString(const Params &)> why, std::function<QString(const Params &)> now)
{
    const QString floorName = rowWords(family, family.settings.limitKey).text(u"floorName"_s);
    // The floor where the bucket count is valid.
    const auto least = [family, floor](const Params &p) {
        return bucketsValid(family, p) ? std::optional(floor(buckets(family, p))) : std::nullopt;
    };
    const auto bounds = [least, fallback](const Params &p) {
        return std::pair<std::int64_t, std::int64_t>(least(p).value_or(fallback) + 1, Params::kMaxLen);
    };
    const auto note = [least, floorName, why](const Params &p) {
        const auto f = least(p);
        return f ? u" (more than %1 = %2: %3)"_s.arg(floorName).arg(*f).arg(why(p)) : QString();
    };
    const auto valid = [family, least](const Params &p) {
        const auto f = least(p);
        return f && limit(family, p) > *f && limit(family, p) <= Params::kMaxLen;
    };
    ParamSpec s = ParamRows::integer(family.settings.limitKey, ParamGroup::Family, family.settings.limit, bounds, note);
    s.controlMax = Params::kMaxLen;
    return own(family, std::move(s), std::move(now), valid);
}

FamilySpec spec(const Family &family, Parts parts)
{
    FamilySpec spec = Families::fromWords(family.words, FamilyKind::ScoreBias);
    spec.rows = std::move(parts.rows);
    spec.lessonNumbers = std::move(parts.lessonNumbers);
    spec.describe = [family, derived = std::move(parts.derived), keys = spec.describeKeys](const Params &p) {
        Description::Entries entries {{u"buckets"_s, buckets(family, p)},
                                      {family.settings.limitName, limit(family, p)}};
        std::ranges::move(Description::keyed(keys, derived(p)), std::back_inserter(entries));
        return entries;
    };
    spec.describeKeys.prepend({u"buckets, %1"_s.arg(family.settings.limitName), u"the parameters"_s});
    // X is s·E alone: its heatmap beside the buckets, which act on the scores.
    spec.defaultFigures = {
        {u"buckets"_s, {}}, {u"families"_s, {}}, {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}}, {u"magnitudes"_s, {}}};
    spec.score
        = FamilyScore {family.name + u" bucket"_s, [family](const Params &p, std::int64_t q, std::int64_t k) {
                           return family.problem(p) ? std::nullopt : std::optional(double(family.ofOffset(p, k - q)));
                       }};
    return spec;
}

} // namespace posenc::RelativeBuckets
