#include "FamiliesModel.h"

#include "alibi/AlibiAttentionModel.h"
#include "buckets/BucketsModel.h"
#include "rope/RopeText.h"

#include "core/alibi/AlibiSlopes.h"
#include "core/deberta/DebertaBuckets.h"
#include "core/rope/RopeFrequencies.h"
#include "core/sinusoidal/Frequencies.h"
#include "core/t5/T5Buckets.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The settings of `family` drawn from `params`: the same parameters under that encoding.
Params familyUnder(const Params &params, Encoding family)
{
    Params p = params;
    p.encoding = family;
    return p;
}

// A line through the points of `offsets` where `f` is linear between them.
FamilyCurve familyLine(const QList<double> &offsets, const std::function<double(double)> &f)
{
    FamilyCurve curve;
    for (const double k : offsets) {
        curve.offset.append(k);
        curve.lo.append(f(k));
    }
    curve.hi = curve.lo;
    return curve;
}

} // namespace

std::int64_t FamiliesModel::defaultQuery(const Params &params)
{
    return (params.maxLen - 1) / 2;
}

std::int64_t FamiliesModel::query(const Params &params, const FigureState &state)
{
    bool ok = false;
    const std::int64_t given = state.option(QString::fromUtf16(kQuery)).trimmed().toLongLong(&ok);
    return ok ? given : defaultQuery(params);
}

std::optional<FamiliesData> FamiliesModel::compute(const Params &params, std::int64_t query, double lower, double upper,
                                                   int pixels, const std::atomic<bool> *cancel, std::int64_t budget)
{
    FamiliesData data;
    data.query = query;
    data.maxLen = params.maxLen;
    data.chosen = params.encoding;
    const OffsetPixels offsets = OffsetPixels::of(query, params.maxLen, lower, upper, pixels);

    // The sinusoid: PE[q] · PE[q + k] = sum over whole pairs of cos(k w_i), and for odd k columns
    // the lone sine's sin(q w) sin((q + k) w).
    const Params sinusoidal = familyUnder(params, Encoding::Sinusoidal);
    data.peColumns = sinusoidal.peColumns();
    data.base = params.sinusoidal.base;
    const FrequencySchedule schedule = Frequencies::schedule(data.peColumns, data.base);
    std::vector<double> whole = schedule.w;
    std::function<double(std::int64_t)> lone;
    if (data.peColumns % 2 == 1) {
        const double w = whole.back();
        whole.pop_back();
        lone = [w, query](std::int64_t k) {
            return std::sin(static_cast<double>(query) * w) * std::sin(static_cast<double>(query + k) * w);
        };
    }
    std::int64_t sampled = 0;
    auto sinusoid = FamiliesCurves::cosineSum(offsets, whole, 1.0, 0.0, lone, budget, &sampled, cancel);
    if (!sinusoid)
        return std::nullopt;
    data.sinusoid = std::move(*sinusoid);
    data.sampled = sampled;

    // RoPE: (2 sum_i cos(k theta_i) + the unrotated columns) / head_dim, as rope-score's first column.
    const Params rotary = familyUnder(params, Encoding::Rope);
    if (!rotary.validate().isEmpty()) {
        data.ropeProblem = u"RoPE's settings are not valid: see its group"_s;
    } else {
        data.ropeScaling = RopeText::scalingText(rotary);
        data.ropeModel = RopeText::modelText(rotary);
        const std::vector<double> theta = RopeFrequencies::schedule(rotary).w;
        const auto headDim = static_cast<double>(rotary.rope.headDim);
        const double unrotated = headDim - 2.0 * static_cast<double>(theta.size());
        auto rope = FamiliesCurves::cosineSum(offsets, theta, 2.0 / headDim, unrotated / headDim, {}, budget, &sampled,
                                              cancel);
        if (!rope)
            return std::nullopt;
        data.rope = std::move(*rope);
        data.sampled = std::max(data.sampled, sampled);
    }

    // ALiBi: a line per head, exact through the offsets in view, 0 and (causal) no key after q.
    data.heads = params.alibi.heads;
    data.head = params.alibi.head;
    data.mask = params.alibi.mask;
    if (offsets.count() > 0) {
        const std::int64_t shownLast
            = data.mask == AlibiMask::Causal ? std::min<std::int64_t>(offsets.last, 0) : offsets.last;
        QList<double> points;
        if (offsets.first <= shownLast) {
            points.append(static_cast<double>(offsets.first));
            if (offsets.first < 0 && shownLast > 0)
                points.append(0.0);
            if (shownLast != offsets.first)
                points.append(static_cast<double>(shownLast));
        }
        const std::vector<double> slopes = AlibiSlopes::all(data.heads);
        for (const std::int64_t k : AlibiAttentionModel::drawnHeads(data.heads, data.head)) {
            const double m = slopes[static_cast<std::size_t>(k - 1)];
            data.alibiHeads.append(k);
            data.alibiSlopes.append(m);
            data.alibi.append(familyLine(points, [m, query, &data](double offset) {
                const auto key = query + static_cast<std::int64_t>(offset);
                return AlibiSlopes::bias(m, query, key, data.mask);
            }));
        }
    }

    // T5 and DeBERTa: their buckets, exact steps.
    data.t5Buckets = params.t5.buckets;
    data.t5MaxDistance = params.t5.maxDistance;
    data.t5Causal = params.t5.causal;
    data.t5Problem = BucketsModel::problem(params, Encoding::T5);
    if (!data.t5Problem)
        data.t5 = FamiliesCurves::steps(offsets, [&params](std::int64_t k) {
            return static_cast<double>(BucketsModel::mapBucket(params, Encoding::T5, k));
        });
    data.debertaBuckets = params.deberta.buckets;
    data.debertaMaxPosition = params.deberta.maxPosition;
    data.debertaProblem = BucketsModel::problem(params, Encoding::Deberta);
    if (!data.debertaProblem)
        data.deberta = FamiliesCurves::steps(offsets, [&params](std::int64_t k) {
            return static_cast<double>(BucketsModel::mapBucket(params, Encoding::Deberta, k));
        });
    return data;
}

QString FamiliesModel::name() const
{
    return u"families"_s;
}

QString FamiliesModel::title() const
{
    return u"One query, five families"_s;
}

QString FamiliesModel::summary() const
{
    return u"for one query (--query) and the current settings, each family's positional term against the key's "
           "offset: the sinusoid's PE.PE, RoPE's score, ALiBi's bias per head, T5's and DeBERTa's bucket"_s;
}

QList<FigureOption> FamiliesModel::options() const
{
    FigureOption query;
    query.key = QString::fromUtf16(kQuery);
    query.kind = FigureOption::Kind::Text;
    query.valueName = u"I"_s;
    query.help = u"the query position, 0 .. max-len - 1; empty: for alibi-attention under alibi's causal mask the "
                 "last one, else (and always for families) the middle one, (max-len - 1)/2"_s;
    return {query};
}

QString FamiliesModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(kQuery))
        return QString::number(defaultQuery(params));
    return FigureModel::defaultText(key, params);
}

QList<Quantity> FamiliesModel::inputs(const FigureState &) const
{
    // Every family's settings: the PE's, RoPE's score, ALiBi's slopes and head, T5's and DeBERTa's.
    return {Quantity::Pe,        Quantity::RopeScore, Quantity::AlibiSlopes,
            Quantity::AlibiBias, Quantity::T5Bucket,  Quantity::DebertaBucket};
}

bool FamiliesModel::hasPreview(const FigureRequest &request) const
{
    // The offsets in view times the sinusoid's frequencies, the larger of the two sums.
    const PanelExtent panel = request.panels.value(0);
    const auto offsets = static_cast<std::int64_t>(std::max(0.0, panel.x.upper - panel.x.lower));
    Params sinusoidal = request.engine->params();
    sinusoidal.encoding = Encoding::Sinusoidal;
    return offsets * std::max<std::int64_t>(sinusoidal.peColumns() / 2, 1) > FamiliesCurves::kPreviewEvaluations;
}

QList<ParamError> FamiliesModel::checkOptions(const Params &params, const FigureState &state) const
{
    const QString text = state.option(QString::fromUtf16(kQuery)).trimmed();
    if (text.isEmpty())
        return {};
    bool ok = false;
    const std::int64_t value = text.toLongLong(&ok);
    if (ok && value >= 0 && value < params.maxLen)
        return {};
    return {{QString::fromUtf16(kQuery),
             u"an integer in [0, %1]: a query position of the %2 figure"_s.arg(params.maxLen - 1).arg(name()),
             QString(), ParamError::quoted(text)}};
}

FigureResult FamiliesModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Params &params = request.engine->params();
    const PanelExtent panel = request.panels.value(0);
    const std::int64_t budget
        = request.detail == Detail::Preview ? FamiliesCurves::kPreviewEvaluations : FamiliesCurves::kMaxEvaluations;
    auto data = compute(params, query(params, request.state), panel.x.lower, panel.x.upper, panel.pixels().width(),
                        &cancel, budget);
    if (data)
        data->preview = request.detail == Detail::Preview && data->sampled > 0;
    if (!data)
        return {};
    return {std::make_shared<const FamiliesData>(std::move(*data)), std::nullopt};
}

} // namespace posenc
