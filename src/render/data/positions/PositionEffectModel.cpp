#include "PositionEffectModel.h"

#include "PositionsOptions.h"

#include "core/FamilySpec.h"

#include <QMutex>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using Column = PositionEffect::Column;
constexpr double kEffectNaN = std::numeric_limits<double>::quiet_NaN();

struct Cached
{
    std::weak_ptr<const Engine> engine;
    std::int64_t row = 0;
    std::shared_ptr<const std::vector<double>> values;
};

// The pixels' bands of column k over the tokens in view.
void effectBand(PositionEffectData::Band &out, const std::vector<double> &v, std::int64_t count, int k,
                const std::vector<std::pair<std::int64_t, std::int64_t>> &pixels)
{
    const double *column = v.data() + std::size_t(k) * std::size_t(count);
    const double *real = v.data();
    for (const auto &[c0, c1] : pixels) {
        double lo = kEffectNaN, hi = kEffectNaN;
        for (std::int64_t c = c0; c < c1; ++c) {
            if (real[c] == 0.0 || std::isnan(column[c]))
                continue;
            lo = std::isnan(lo) ? column[c] : std::min(lo, column[c]);
            hi = std::isnan(hi) ? column[c] : std::max(hi, column[c]);
        }
        out.lo.append(lo);
        out.hi.append(hi);
    }
}

double effectLargest(const std::vector<double> &v, std::int64_t count, int k)
{
    double most = 0.0;
    for (std::int64_t c = 0; c < count; ++c) {
        const double x = v[std::size_t(k) * std::size_t(count) + std::size_t(c)];
        if (v[std::size_t(c)] != 0.0 && std::isfinite(x))
            most = std::max(most, std::abs(x));
    }
    return most;
}

} // namespace

std::shared_ptr<const std::vector<double>> PositionEffectModel::rowValues(const std::shared_ptr<const Engine> &engine,
                                                                          std::int64_t b, int threads,
                                                                          const std::atomic<bool> *cancel)
{
    static QMutex mutex;
    static std::vector<Cached> cache;
    {
        const QMutexLocker lock(&mutex);
        for (const Cached &c : cache) {
            if (c.row == b && c.engine.lock() == engine)
                return c.values;
        }
    }
    // The row's block of the position-effect table, its tokens on the engine's threads.
    const std::int64_t count = engine->params().maxLen;
    RowMatrixXf table(count, PositionEffect::Columns);
    if (!engine->compute(Quantity::PositionEffect, {b * count, count, 0, PositionEffect::Columns}, table,
                         {threads, cancel}))
        return nullptr;
    auto values = std::make_shared<std::vector<double>>(std::size_t(PositionEffect::Columns * count));
    for (std::int64_t c = 0; c < count; ++c)
        for (int k = 0; k < PositionEffect::Columns; ++k)
            (*values)[std::size_t(k * count + c)] = double(table(c, k));
    const QMutexLocker lock(&mutex);
    // The last few rows drawn: a view's zoom and its export draw the same row again.
    constexpr std::size_t kKept = 4;
    if (cache.size() >= kKept)
        cache.erase(cache.begin());
    cache.push_back({engine, b, values});
    return values;
}

QString PositionEffectModel::name() const
{
    return u"position-effect"_s;
}

QString PositionEffectModel::title() const
{
    return u"Position effect"_s;
}

QString PositionEffectModel::summary() const
{
    return u"along one row of the batch, what each real token sees under the reference's ids and under --ids-choice: "
           "the family's score against its document's first token, the difference (float32's too), and the "
           "absolute parts (the term's rows, Llama 4's temperature and chunk)"_s;
}

QList<FigureOption> PositionEffectModel::options() const
{
    return {PositionsOptions::row()};
}

QString PositionEffectModel::defaultText(const QString &key, const Params &params) const
{
    if (key == QString::fromUtf16(PositionsOptions::kRow))
        return PositionsOptions::defaultRow(params);
    return FigureModel::defaultText(key, params);
}

QList<Quantity> PositionEffectModel::inputs(const FigureState &) const
{
    return {Quantity::PositionEffect};
}

std::optional<TableRequest> PositionEffectModel::table(const Params &params, const FigureState &state) const
{
    const std::int64_t row = PositionsOptions::rowOf(params, state);
    return TableRequest {TableRequest::Cells,
                         Quantity::PositionEffect,
                         {row * params.maxLen, params.maxLen, 0, PositionEffect::Columns},
                         {}};
}

QList<ParamError> PositionEffectModel::checkOptions(const Params &params, const FigureState &state) const
{
    return PositionsOptions::checkRow(params, state, name());
}

FigureResult PositionEffectModel::computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const
{
    const Engine &engine = *request.engine;
    const Params &p = engine.params();
    const PositionEffect &effect = engine.source<PositionEffect>();
    auto data = std::make_shared<PositionEffectData>();
    PositionEffectData &d = *data;
    d.cols = p.maxLen;
    d.choice = p.batch.ids;
    d.kind = effect.scoreKind();
    d.term = effect.addsTerm();
    d.temperature = bool(p.batch.attnScale);
    d.chunk = bool(p.batch.chunk);
    d.scoreWords = effect.scoreWords();
    d.family = Families::spec(p.encoding).heading;
    if (effect.ids().problem()) {
        d.problem = *effect.ids().problem();
        return {data, std::nullopt};
    }
    const BatchLayout &layout = effect.ids().layout();
    d.row = std::clamp<std::int64_t>(PositionsOptions::rowOf(p, request.state), 0, layout.rows() - 1);
    d.realTokens = layout.realTokens(d.row);
    for (const BatchSegment &s : layout.row(d.row)) {
        if (!s.isReal() && d.padding.size() < 256)
            d.padding.append({s.start, s.end()});
    }
    const auto values = rowValues(request.engine, d.row, request.threads, &cancel);
    if (!values || cancel)
        return {};
    const std::vector<double> &v = *values;
    const std::int64_t count = d.cols;
    for (std::int64_t c = 0; c < count; ++c) {
        if (v[std::size_t(c)] != 0.0
            && v[std::size_t(Column::ReferenceId * count + c)] != v[std::size_t(Column::ChosenId * count + c)])
            ++d.changedIds;
    }
    d.largestDifference = effectLargest(v, count, Column::ScoreDifference);
    d.largestFloat32 = effectLargest(v, count, Column::Float32Difference);
    d.largestTerm = effectLargest(v, count, Column::TermDifference);
    // The pixels of the panel: equal bands of the columns in view.
    const PanelExtent panel = request.panels.value(0);
    const std::int64_t first = std::clamp<std::int64_t>(std::llround(std::ceil(panel.x.lower)), 0, count - 1);
    const std::int64_t last = std::clamp<std::int64_t>(std::llround(std::floor(panel.x.upper)), first, count - 1);
    const std::int64_t columns = last - first + 1;
    const int pixels = int(std::clamp<std::int64_t>(panel.pixels().width(), 1, columns));
    std::vector<std::pair<std::int64_t, std::int64_t>> bands;
    for (int i = 0; i < pixels; ++i) {
        const std::int64_t c0 = first + columns * i / pixels, c1 = first + columns * (i + 1) / pixels;
        bands.emplace_back(c0, c1);
        d.x.append(0.5 * double(c0 + c1 - 1));
    }
    effectBand(d.scoreReference, v, count, Column::ScoreReference, bands);
    effectBand(d.scoreChosen, v, count, Column::ScoreChosen, bands);
    effectBand(d.difference, v, count, Column::ScoreDifference, bands);
    effectBand(d.float32, v, count, Column::Float32Difference, bands);
    effectBand(d.termDifference, v, count, Column::TermDifference, bands);
    effectBand(d.temperatureIds, v, count, Column::TemperatureIds, bands);
    effectBand(d.temperatureCache, v, count, Column::TemperatureCache, bands);
    effectBand(d.chunkIds, v, count, Column::ChunkIds, bands);
    effectBand(d.chunkCache, v, count, Column::ChunkCache, bands);
    return {data, std::nullopt};
}

} // namespace posenc
