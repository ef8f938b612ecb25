#include "PositionEffectModel.h"

#include "PositionsOptions.h"

#include "core/FamilySpec.h"

#include "core/ThreadPools.h"

#include <QMutex>

#include <algorithm>
#include <array>
#include <cmath>
#include <future>
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

// The last few rows drawn: a view's zoom and its export draw the same row again.
QMutex g_cacheMutex;
std::vector<Cached> g_cache;

std::shared_ptr<const std::vector<double>> keptRow(const std::shared_ptr<const Engine> &engine, std::int64_t b)
{
    const QMutexLocker lock(&g_cacheMutex);
    for (const Cached &c : g_cache) {
        if (c.row == b && c.engine.lock() == engine)
            return c.values;
    }
    return nullptr;
}

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

// The tokens of `perPixel` evenly spaced columns of each pixel; each pixel's columns become its
// range of those tokens.
std::vector<std::int64_t> previewTokens(std::vector<std::pair<std::int64_t, std::int64_t>> &pixels,
                                        std::int64_t perPixel)
{
    std::vector<std::int64_t> tokens;
    for (auto &[c0, c1] : pixels) {
        const std::int64_t n = std::min(perPixel, c1 - c0), from = std::int64_t(tokens.size());
        for (std::int64_t j = 0; j < n; ++j)
            tokens.push_back(c0 + (c1 - c0) * (2 * j + 1) / (2 * n));
        c0 = from;
        c1 = std::int64_t(tokens.size());
    }
    return tokens;
}

// The effect columns of the tokens, laid out as a row's block of the table over those tokens alone,
// on every core: the preview of a view is what the user waits for.
std::vector<double> previewValues(const PositionEffect &effect, std::int64_t b, const std::vector<std::int64_t> &tokens)
{
    const auto count = std::int64_t(tokens.size());
    std::vector<double> values(std::size_t(PositionEffect::Columns * count));
    constexpr std::int64_t kTileTokens = 64;
    forEachTile((count + kTileTokens - 1) / kTileTokens, 0, nullptr, [&](std::int64_t tile) {
        std::array<double, PositionEffect::Columns> one {};
        for (std::int64_t i = tile * kTileTokens; i < std::min(count, (tile + 1) * kTileTokens); ++i) {
            effect.values(b, tokens[std::size_t(i)], 1, one.data());
            for (int k = 0; k < PositionEffect::Columns; ++k)
                values[std::size_t(k * count + i)] = one[std::size_t(k)];
        }
    });
    return values;
}

using SharedValues = std::shared_future<std::shared_ptr<const std::vector<double>>>;

struct Preview
{
    std::weak_ptr<const Engine> engine;
    std::vector<std::int64_t> tokens;
    std::int64_t row = 0;
    SharedValues values;
};

// The last few previews, and those being computed: views that show the same row of the same engine
// over the same pixels (two views of the figure, a view and its export) compute it once, the others
// wait for it.
QMutex g_previewMutex;
std::vector<Preview> g_previews;

std::shared_ptr<const std::vector<double>> sharedPreview(const std::shared_ptr<const Engine> &engine, std::int64_t b,
                                                         const std::vector<std::int64_t> &tokens)
{
    std::promise<std::shared_ptr<const std::vector<double>>> mine;
    SharedValues values;
    bool computes = false;
    {
        const QMutexLocker lock(&g_previewMutex);
        for (const Preview &p : g_previews) {
            if (p.row == b && p.tokens == tokens && p.engine.lock() == engine)
                values = p.values;
        }
        if (!values.valid()) {
            values = mine.get_future().share();
            computes = true;
            constexpr std::size_t kKept = 4;
            if (g_previews.size() >= kKept)
                g_previews.erase(g_previews.begin());
            g_previews.push_back({engine, tokens, b, values});
        }
    }
    if (computes) {
        try {
            mine.set_value(std::make_shared<const std::vector<double>>(
                previewValues(engine->source<PositionEffect>(), b, tokens)));
        } catch (...) {
            mine.set_exception(std::current_exception());
        }
    }
    return values.get();
}

// The real tokens of row b whose id (the first axis's) `choice` changes, from the ids alone.
std::int64_t changedIds(const BatchIds &ids, IdsChoice choice, std::int64_t b)
{
    std::int64_t changed = 0;
    std::vector<std::int64_t> reference, chosen;
    for (const BatchSegment &s : ids.layout().row(b)) {
        if (!s.isReal())
            continue;
        reference.resize(std::size_t(ids.axes() * s.length));
        chosen.resize(reference.size());
        ids.ids(IdsChoice::Reference, b, s.start, s.length, reference.data());
        ids.ids(choice, b, s.start, s.length, chosen.data());
        for (std::int64_t i = 0; i < s.length; ++i)
            changed += reference[std::size_t(i)] != chosen[std::size_t(i)] ? 1 : 0;
    }
    return changed;
}

} // namespace

std::shared_ptr<const std::vector<double>> PositionEffectModel::rowValues(const std::shared_ptr<const Engine> &engine,
                                                                          std::int64_t b, int threads,
                                                                          const std::atomic<bool> *cancel)
{
    if (auto kept = keptRow(engine, b))
        return kept;
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
    const QMutexLocker lock(&g_cacheMutex);
    constexpr std::size_t kKept = 4;
    if (g_cache.size() >= kKept)
        g_cache.erase(g_cache.begin());
    g_cache.push_back({engine, b, values});
    return values;
}

QList<Encoding> PositionEffectModel::families() const
{
    // The family table is fixed: read once. Every view's option bar asks each figure whether it
    // applies (FigureModel::appliesTo) at every change of parameters, and asking the table anew
    // was a thirtieth of the GUI thread's instructions per change.
    static const QList<Encoding> read = [] {
        QList<Encoding> all;
        for (const FamilySpec &family : Families::all())
            if (PositionEffect::reads(family))
                all.append(family.encoding);
        return all;
    }();
    return read;
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

QList<FigureOption> PositionEffectModel::ownOptions() const
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

bool PositionEffectModel::hasPreview(const FigureRequest &request) const
{
    // Every token of the row costs its rotary pairs' cosines four times: a row of 32768 columns at
    // Llama's 64 pairs is 8.8M cells, past a preview's budget. A row kept from an earlier draw needs
    // none.
    const Engine &engine = *request.engine;
    const Params &p = engine.params();
    const std::int64_t row = PositionsOptions::rowOf(p, request.state);
    return engine.source<PositionEffect>().tokenCost() * double(p.maxLen) > double(Budget::cells(Detail::Preview))
        && !keptRow(request.engine, row);
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
    d.frequenciesMove = effect.frequenciesMove();
    d.scoreWords = effect.scoreWords();
    d.family = Families::spec(p.encoding).heading;
    if (effect.ids().problem()) {
        d.problem = *effect.ids().problem();
        return {data, std::nullopt};
    }
    const BatchLayout &layout = effect.ids().layout();
    d.referenceLength = effect.ids().maxId(IdsChoice::Reference) + 1;
    d.chosenLength = effect.ids().maxId(d.choice) + 1;
    d.row = std::clamp<std::int64_t>(PositionsOptions::rowOf(p, request.state), 0, layout.rows() - 1);
    d.realTokens = layout.realTokens(d.row);
    for (const BatchSegment &s : layout.row(d.row)) {
        if (!s.isReal() && d.padding.size() < 256)
            d.padding.append({s.start, s.end()});
    }
    // The pixels of the panel: equal bands of the columns in view.
    const PanelExtent panel = request.panels.value(0);
    const std::int64_t count = d.cols;
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
    std::shared_ptr<const std::vector<double>> values;
    std::int64_t tokens = count;
    if (request.detail == Detail::Preview) {
        // A few tokens a pixel, evenly, within a preview's budget; the ids of the whole row.
        const auto perPixel = std::int64_t(
            std::max(1.0, double(Budget::cells(Detail::Preview)) / (effect.tokenCost() * double(pixels))));
        const std::vector<std::int64_t> sampled = previewTokens(bands, perPixel);
        tokens = std::int64_t(sampled.size());
        values = sharedPreview(request.engine, d.row, sampled);
        d.changedIds = changedIds(effect.ids(), d.choice, d.row);
        d.preview = true;
    } else {
        values = rowValues(request.engine, d.row, request.threads, &cancel);
        if (!values || cancel)
            return {};
        for (std::int64_t c = 0; c < count; ++c) {
            const std::vector<double> &v = *values;
            if (v[std::size_t(c)] != 0.0
                && v[std::size_t(Column::ReferenceId * count + c)] != v[std::size_t(Column::ChosenId * count + c)])
                ++d.changedIds;
        }
    }
    const std::vector<double> &v = *values;
    d.largestDifference = effectLargest(v, tokens, Column::ScoreDifference);
    d.largestFloat32 = effectLargest(v, tokens, Column::Float32Difference);
    d.largestTerm = effectLargest(v, tokens, Column::TermDifference);
    effectBand(d.scoreReference, v, tokens, Column::ScoreReference, bands);
    effectBand(d.scoreChosen, v, tokens, Column::ScoreChosen, bands);
    effectBand(d.difference, v, tokens, Column::ScoreDifference, bands);
    effectBand(d.float32, v, tokens, Column::Float32Difference, bands);
    effectBand(d.termDifference, v, tokens, Column::TermDifference, bands);
    effectBand(d.temperatureIds, v, tokens, Column::TemperatureIds, bands);
    effectBand(d.temperatureCache, v, tokens, Column::TemperatureCache, bands);
    effectBand(d.chunkIds, v, tokens, Column::ChunkIds, bands);
    effectBand(d.chunkCache, v, tokens, Column::ChunkCache, bands);
    effectBand(d.temperatureReference, v, tokens, Column::TemperatureReference, bands);
    return {data, std::nullopt};
}

} // namespace posenc
