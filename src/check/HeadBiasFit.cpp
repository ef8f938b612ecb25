#include "HeadBiasFit.h"

#include "check/MaskFill.h"
#include "check/OffsetFit.h"
#include "core/NumberText.h"

#include <bit>
#include <cfloat>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::HeadBiasFit {

std::optional<After> readAfter(const OffsetProfile &profile, ValueFormat format, double atOne,
                               std::optional<double> own, const std::function<bool(double, double)> &same,
                               const After &causal)
{
    if (!profile.has(1))
        return causal;
    const double after = double(profile.at(1));
    After read;
    if (MaskFill::is(after, format))
        read.fill = profile.at(1);
    else if (own && same(after, *own))
        read.fill = std::numeric_limits<float>::quiet_NaN();
    else if (same(after, atOne))
        read.twoSided = true;
    else
        return causal; // another value: the causal reading, from which the keys after the query differ
    return read;
}

After declaredAfter(const TableEvidence &e, After declared)
{
    if (declared.twoSided)
        return declared;
    const std::optional<OffsetProfile> profile = offsetProfile(e.sample, e.sample.queryStart);
    if (profile && profile->has(1) && MaskFill::is(double(profile->at(1)), e.format))
        declared.fill = profile->at(1);
    return declared;
}

OffsetReference::Values values(std::function<double(std::int64_t distance)> bias, const After &after, double own)
{
    return [bias = std::move(bias), after, own](std::int64_t first, std::int64_t count, float *out) {
        for (std::int64_t k = 0; k < count; ++k) {
            const std::int64_t t = first + k;
            if (t > 0 && !after.twoSided)
                out[k] = std::isnan(after.fill) ? float(own) : after.fill;
            else
                out[k] = float(bias(t < 0 ? -t : t));
        }
    };
}

QString fillWords(float fill)
{
    return std::isinf(fill) ? u"−inf"_s : NumberText::compact(double(fill), 4);
}

QString lowestWords(float fill)
{
    if (fill == -FLT_MAX)
        return u"float32's lowest"_s;
    if (fill == std::bit_cast<float>(0xff7f0000u))
        return u"bfloat16's lowest"_s;
    if (double(fill) == MaskFill::kFloat16Lowest)
        return u"float16's lowest"_s;
    return u"a mask's fill"_s;
}

QList<MatchField> headFindings(std::int64_t heads, std::int64_t head)
{
    return {{u"heads"_s, heads > 0 ? MatchValue(heads) : MatchValue()},
            {u"head"_s, head > 0 ? MatchValue(head) : MatchValue()}};
}

TableHypothesis hypothesis(const HeadBias::Family &family,
                           std::function<std::optional<TableCandidate>(const TableEvidence &)> fit,
                           std::function<TableMatch(const TableEvidence &, const Params &)> matchAt)
{
    const FamilyWords words = family.words.part(u"check"_s);
    TableHypothesis h;
    h.tables = {family.table};
    h.findingKeys = words.texts(u"findingKeys"_s);
    h.help = words.text(u"help"_s);
    h.referenceCode = words.text(u"referenceCode"_s);
    h.fit = std::move(fit);
    h.expect = [family, matchAt = std::move(matchAt)](const TableEvidence &e, const Params &params,
                                                      const QString &table) -> std::variant<TableMatch, QString> {
        if (auto refused = OffsetFit::refusal(table, params, family.table, family.encoding, family.name))
            return *refused;
        TableMatch m = matchAt(e, params);
        m.params = params;
        return m;
    };
    h.publishedForms = [](std::int64_t) { return QList<PublishedForm>(); };
    h.rowShiftFree = true; // a bias added to the scores: up to a constant per query row (RowConstant)
    // A bias that differs from the declared one in its mask alone is a mistake of its own: the
    // direction a model attends in, not a number of the formula (mlx#3071, x-transformers#88).
    if (!family.maskKey.isEmpty()) {
        h.mistakes.append(CheckMistakes::kBiasMask);
        h.parameterMistakes.insert(family.maskKey, CheckMistakes::kBiasMask);
    }
    return h;
}

} // namespace posenc::HeadBiasFit
