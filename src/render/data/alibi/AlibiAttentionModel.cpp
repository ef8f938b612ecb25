#include "AlibiAttentionModel.h"

#include "core/alibi/AlibiSlopes.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

std::int64_t AlibiAttentionModel::defaultQuery(const Params &params)
{
    // The last query sees every key under the causal mask; symmetric, the middle one sees both sides.
    return params.alibi.mask == AlibiMask::Causal ? params.maxLen - 1 : (params.maxLen - 1) / 2;
}

std::int64_t AlibiAttentionModel::query(const Params &params, const FigureState &state)
{
    bool ok = false;
    const std::int64_t given = state.option(QString::fromUtf16(kQuery)).trimmed().toLongLong(&ok);
    return ok ? given : defaultQuery(params);
}

QList<std::int64_t> AlibiAttentionModel::drawnHeads(std::int64_t heads, std::int64_t head)
{
    return AlibiSlopes::drawnHeads(heads, head);
}

AlibiAttentionData AlibiAttentionModel::compute(const Params &params, std::int64_t query, double lower, double upper,
                                                int pixels)
{
    AlibiAttentionData data;
    data.query = query;
    data.maxLen = params.maxLen;
    data.heads = params.alibi.heads;
    data.head = params.alibi.head;
    data.mask = params.alibi.mask;
    data.keys = AlibiAttention::keysOf(params.maxLen, query, params.alibi.mask);
    const std::int64_t farthest = data.keys.farthest();
    if (farthest >= 1) {
        // The integers of [lower, upper] within 1..farthest: each pixel's first, and the last.
        const double x0 = std::clamp(lower, 1.0, static_cast<double>(farthest));
        const double x1 = std::clamp(upper, x0, static_cast<double>(farthest));
        const auto first = static_cast<std::int64_t>(std::max(1.0, std::floor(x0)));
        const auto last = static_cast<std::int64_t>(std::min(static_cast<double>(farthest), std::ceil(x1)));
        const int n = std::max(pixels, 1);
        const double span = std::log(static_cast<double>(last) / static_cast<double>(first));
        std::int64_t previous = 0;
        for (int p = 0; p <= n; ++p) {
            const auto d = std::clamp<std::int64_t>(
                static_cast<std::int64_t>(std::ceil(static_cast<double>(first) * std::exp(span * p / n) - 1e-9)), first,
                last);
            if (d == previous)
                continue;
            data.distance.append(static_cast<double>(d));
            previous = d;
        }
        if (previous != last)
            data.distance.append(static_cast<double>(last));
    }
    const std::vector<double> slopes = AlibiSlopes::all(data.heads);
    for (const std::int64_t k : drawnHeads(data.heads, data.head)) {
        AlibiAttentionHead head;
        head.head = k;
        head.slope = slopes[static_cast<std::size_t>(k - 1)];
        const AlibiAttention::Head weights(head.slope, data.keys);
        head.weight.reserve(data.distance.size());
        head.within.reserve(data.distance.size());
        for (const double d : data.distance) {
            const auto distance = static_cast<std::int64_t>(d);
            head.weight.append(weights.weight(distance));
            head.within.append(weights.within(distance));
        }
        head.self = weights.weight(0);
        head.half = weights.span(0.5);
        head.ninety = weights.span(0.9);
        head.halfShare = weights.within(head.half);
        head.ninetyShare = weights.within(head.ninety);
        data.drawn.append(head);
    }
    return data;
}

QString AlibiAttentionModel::name() const
{
    return u"alibi-attention"_s;
}

QString AlibiAttentionModel::title() const
{
    return u"ALiBi attention span"_s;
}

QString AlibiAttentionModel::summary() const
{
    return u"the softmax weight one query (--query) gives the keys against distance, every head, content scores "
           "zero: the bias alone shows each head's span (half and 90% of the weight marked)"_s;
}

QList<FigureOption> AlibiAttentionModel::ownOptions() const
{
    FigureOption query;
    query.key = QString::fromUtf16(kQuery);
    query.kind = FigureOption::Kind::Text;
    query.valueName = u"I"_s;
    query.help = u"the query position, 0 .. max-len - 1; empty: for alibi-attention under alibi's causal mask the "
                 "last one, else (and always for families) the middle one, (max-len - 1)/2"_s;
    return {query};
}

QString AlibiAttentionModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(kQuery))
        return QString::number(defaultQuery(params));
    return FigureModel::defaultText(key, params);
}

QList<Quantity> AlibiAttentionModel::inputs(const FigureState &) const
{
    // The slopes, and max-len, the mask and head K (drawn wider), which the bias reads.
    return {Quantity::AlibiSlopes, Quantity::AlibiBias};
}

QList<ParamError> AlibiAttentionModel::checkOptions(const Params &params, const FigureState &state) const
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

FigureResult AlibiAttentionModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    const Params &params = request.engine->params();
    const PanelExtent panel = request.panels.value(0);
    auto data = compute(params, query(params, request.state), panel.x.lower, panel.x.upper, panel.pixels().width());
    return {std::make_shared<const AlibiAttentionData>(std::move(data)), std::nullopt};
}

} // namespace posenc
