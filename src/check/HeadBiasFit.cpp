#include "HeadBiasFit.h"

#include "check/OffsetFit.h"
#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::HeadBiasFit {

std::optional<After> readAfter(const OffsetProfile &profile, double atOne, std::optional<double> own,
                               const std::function<bool(double, double)> &same, const After &causal)
{
    if (!profile.has(1))
        return causal;
    const double after = double(profile.at(1));
    After read;
    if (after <= kMaskBelow)
        read.fill = profile.at(1);
    else if (own && same(after, *own))
        read.fill = std::numeric_limits<float>::quiet_NaN();
    else if (same(after, atOne))
        read.twoSided = true;
    else
        return causal; // another value: the causal reading, from which the keys after the query differ
    return read;
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
    return h;
}

} // namespace posenc::HeadBiasFit
