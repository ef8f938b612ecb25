// The positions' figures (position-ids, position-effect, document-distance): their pixels against
// float64 sums written here (the mean id of a pixel's real tokens, the least and the most of a
// pixel's RoPE scores, the mean distance of a pixel's attended pairs), and each figure as a 14-pt
// slide and a view of the window, its plots keeping their room (RelativeSlides).
#include "render/data/positions/DocumentDistanceModel.h"
#include "render/data/positions/PositionEffectModel.h"
#include "render/data/positions/PositionIdsModel.h"
#include "render/data/positions/PositionsOptions.h"
#include "support/TestMain.h"

#include "RelativeSlides.h"

#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "support/FigureBuilds.h"
#include "support/MropeReference.h"

#include "core/Engine.h"
#include "core/ParamText.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <thread>

namespace tst_positionsfigures {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params with(std::initializer_list<std::pair<QString, QString>> values)
{
    Params p;
    p.dropout = 0.0;
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s: %s", qPrintable(key), qPrintable(error->sentence()));
    }
    return p;
}

template<typename Data>
std::shared_ptr<const Data> computed(const QString &figure, const Params &params, const QList<PanelExtent> &panels,
                                     const FigureState &state = {}, Detail detail = Detail::Full,
                                     std::shared_ptr<const Engine> engine = nullptr)
{
    FigureRequest request;
    request.engine = engine ? std::move(engine) : std::make_shared<const Engine>(params);
    request.state = state;
    request.panels = panels;
    request.detail = detail;
    const std::atomic<bool> cancel {false};
    const FigureResult result = FigureBuilds::figure(figure).model().compute(request, cancel);
    return std::static_pointer_cast<const Data>(result.data);
}

PanelExtent extent(int width, int height, double x0, double x1, double y0, double y1)
{
    return {QSize(width, height), 1.0, {x0, x1}, {y0, y1}};
}

// transformers' ids of a left-padded row of `n` real tokens in `cols` columns; -1 for padding.
std::vector<double> leftIds(int n, int cols)
{
    std::vector<double> ids;
    for (int c = 0; c < cols; ++c)
        ids.push_back(c < cols - n ? -1.0 : double(c - (cols - n)));
    return ids;
}

} // namespace

class TestPositionsFigures : public QObject
{
    Q_OBJECT

private slots:
    // A pixel of the ids' map is the mean of its real tokens' ids; padding alone is NaN.
    void idsMapMeans()
    {
        const Params p = with({{u"max-len"_s, u"8"_s}, {u"batch"_s, u"left:5,8,3"_s}});
        const std::vector<std::vector<double>> ids = {leftIds(5, 8), leftIds(8, 8), leftIds(3, 8)};
        for (const int pixels : {8, 3}) {
            const auto d = computed<PositionIdsData>(
                u"position-ids"_s, p, {extent(pixels, 3, -0.5, 7.5, -0.5, 2.5), extent(200, 100, -0.5, 7.5, 0, 8)});
            QCOMPARE(d->grid.cols, pixels);
            for (int r = 0; r < 3; ++r) {
                for (int b = 0; b < pixels; ++b) {
                    const int c0 = 8 * b / pixels, c1 = 8 * (b + 1) / pixels;
                    double sum = 0.0;
                    int n = 0;
                    for (int c = c0; c < c1; ++c)
                        if (ids[std::size_t(r)][std::size_t(c)] >= 0.0) {
                            sum += ids[std::size_t(r)][std::size_t(c)];
                            ++n;
                        }
                    const float v = d->grid.at(r, b);
                    if (n == 0)
                        QVERIFY(std::isnan(v));
                    else
                        QCOMPARE(v, float(sum / n));
                }
            }
        }
    }

    // The row drawn closely: each real segment's ends, the reference's and arange's.
    void idsRowLine()
    {
        const Params p = with(
            {{u"max-len"_s, u"8"_s}, {u"batch"_s, u"left:5,8,3"_s}, {u"ids-choice"_s, u"arange-with-padding"_s}});
        const auto d = computed<PositionIdsData>(
            u"position-ids"_s, p, {extent(8, 3, -0.5, 7.5, -0.5, 2.5), extent(200, 100, -0.5, 7.5, 0, 8)});
        QCOMPARE(d->row, std::int64_t(0)); // the first row with padding
        QCOMPARE(d->x.value(0), 3.0);
        QCOMPARE(d->reference.value(0), 0.0);
        QCOMPARE(d->chosen.value(0), 3.0);
        QCOMPARE(d->x.value(1), 7.0);
        QCOMPARE(d->reference.value(1), 4.0);
        QVERIFY(d->differs);
    }

    // Each batch's default row is its first with padding or documents, whatever batch was asked
    // before (the last batch's row is kept).
    void defaultRowOfEachBatch()
    {
        for (int round = 0; round < 2; ++round) {
            QCOMPARE(PositionsOptions::defaultRow(with({{u"max-len"_s, u"8"_s}, {u"batch"_s, u"left:8,5,3"_s}})),
                     u"1"_s);
            QCOMPARE(PositionsOptions::defaultRow(with({{u"max-len"_s, u"8"_s}, {u"batch"_s, u"left:8,8,3"_s}})),
                     u"2"_s);
            QCOMPARE(PositionsOptions::defaultRow(with({{u"max-len"_s, u"9"_s}, {u"packed"_s, u"9/3,4,2"_s}})), u"1"_s);
            QCOMPARE(PositionsOptions::defaultRow(with({{u"max-len"_s, u"9"_s}, {u"batch"_s, u"left:8,5,3"_s}})),
                     u"0"_s);
        }
    }

    // A document of one token (packed 5,1,6,2, column 5) is drawn as a dash across its column: its
    // id 0 under the collator's restarted ids, 5 under a running count.
    void idsRowLineShowsALoneToken()
    {
        const Params p = with(
            {{u"max-len"_s, u"14"_s}, {u"packed"_s, u"5,1,6,2"_s}, {u"ids-choice"_s, u"positions-not-restarted"_s}});
        const auto d = computed<PositionIdsData>(
            u"position-ids"_s, p, {extent(14, 1, -0.5, 13.5, -0.5, 0.5), extent(200, 100, -0.5, 13.5, 0, 14)});
        QList<double> reference, chosen;
        for (qsizetype i = 0; i < d->x.size(); ++i) {
            if (d->x[i] > 4.5 && d->x[i] < 5.5 && !std::isnan(d->reference[i])) {
                reference.append(d->reference[i]);
                chosen.append(d->chosen[i]);
            }
        }
        QCOMPARE(reference, (QList<double> {0.0, 0.0}));
        QCOMPARE(chosen, (QList<double> {5.0, 5.0}));
    }

    // The row's id axis spans the ids drawn, the largest of the reference's and the chosen ones on
    // the drawn axis over the batch (+ 1, as ever), not the row's length: M-RoPE's ids of a prompt
    // with an image fall short of L, and a Qwen2.5-VL video's t ids (second_per_grid 2 at 25 tokens a
    // second: t = 50 k) run past it. The ids from get_rope_index written in tests/support/MropeReference.h,
    // the left-padded rows' from transformers' cumsum(mask) − 1 (arange: the column).
    void idsAxisSpansTheIds_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("axis");
        QTest::addColumn<double>("largest");
        // The default prompt's first 22 tokens, text:5,image:1x4x6,text:3,video:2x4x4: the longest
        // row ends with the video, its t ids above its h and w.
        const std::vector<mroperef::Segment> prompt
            = {{0, 5, 0, 0, 0, 0.0}, {1, 0, 1, 4, 6, 0.0}, {0, 3, 0, 0, 0, 0.0}, {2, 0, 2, 4, 4, 2.0}};
        const mroperef::Table v25 = mroperef::ropeIndex(prompt, u"qwen2.5-vl"_s, u"v4"_s, 2, 25.0, 6);
        const mroperef::Table v2 = mroperef::ropeIndex(prompt, u"qwen2-vl"_s, u"v4"_s, 2, 2.0, 6);
        const auto most = [](const mroperef::Ids &ids) { return double(*std::max_element(ids.begin(), ids.end())); };
        const auto mrope = [](const QString &vision) {
            return with({{u"encoding"_s, u"mrope"_s},
                         {u"max-len"_s, u"32"_s},
                         {u"batch"_s, u"left:22,14,5"_s},
                         {u"vision-positions"_s, vision},
                         {u"tokens-per-second"_s, u"25"_s},
                         {u"second-per-grid"_s, u"2"_s}});
        };
        QTest::newRow("qwen2.5-vl t") << mrope(u"qwen2.5-vl"_s) << u"t"_s << most(v25.t);
        QTest::newRow("qwen2.5-vl w") << mrope(u"qwen2.5-vl"_s) << u"w"_s << most(v25.w);
        QTest::newRow("qwen2-vl t") << mrope(u"qwen2-vl"_s) << u"t"_s << most(v2.t);
        QTest::newRow("one id, arange") << with(
            {{u"max-len"_s, u"8"_s}, {u"batch"_s, u"left:5,8,3"_s}, {u"ids-choice"_s, u"arange-with-padding"_s}})
                                        << u"t"_s << 7.0;
        QTest::newRow("one id, reference")
            << with({{u"max-len"_s, u"8"_s}, {u"batch"_s, u"left:5,3"_s}}) << u"t"_s << 4.0;
    }
    void idsAxisSpansTheIds()
    {
        QFETCH(Params, params);
        QFETCH(QString, axis);
        QFETCH(double, largest);
        FigureState state;
        state.options.insert(QString::fromUtf16(PositionIdsModel::kAxis), axis);
        for (const QSize pixels : {QSize(1366, 768), QSize(1920, 1080)}) {
            const auto built = FigureBuilds::build(u"position-ids"_s, params, FigureSize::fromPixels(pixels), state);
            QCOMPARE(FigureBuilds::errorOf(*built), QString());
            const QList<ViewAxis> axes = built->figurePlot().viewAxes();
            const auto ids
                = std::find_if(axes.begin(), axes.end(), [](const ViewAxis &a) { return a.key == u"ids"_s; });
            QVERIFY(ids != axes.end());
            QCOMPARE(ids->axis->range().lower, -0.5);
            QCOMPARE(ids->axis->range().upper, largest + 1.5);
        }
    }

    // Each pixel's band: the least and the most of its real tokens' RoPE scores against the row's
    // first, mean over the pairs of cos((q − k) w_i), w_i = 10000^(−2i/16).
    void effectBands()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"16"_s},
                               {u"head-dim"_s, u"16"_s},
                               {u"max-len"_s, u"40"_s},
                               {u"batch"_s, u"left:30,40"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const auto score = [](std::int64_t delta) {
            double sum = 0.0;
            for (int i = 0; i < 8; ++i)
                sum += std::cos(double(delta) / std::pow(10000.0, 2.0 * i / 16.0));
            return sum / 8.0;
        };
        const auto d = computed<PositionEffectData>(u"position-effect"_s, p, {extent(5, 80, -0.5, 39.5, 0, 1)});
        QCOMPARE(d->x.size(), 5);
        for (int i = 0; i < 5; ++i) {
            double lo = NAN, hi = NAN;
            for (int c = 8 * i; c < 8 * (i + 1); ++c) {
                if (c < 10)
                    continue;
                const double s = score(c - 10);
                lo = std::isnan(lo) ? s : std::min(lo, s);
                hi = std::isnan(hi) ? s : std::max(hi, s);
            }
            if (std::isnan(lo)) {
                QVERIFY(std::isnan(d->scoreReference.lo[i]));
                continue;
            }
            QVERIFY(std::abs(d->scoreReference.lo[i] - lo) < 1e-6); // the table's float32 cells
            QVERIFY(std::abs(d->scoreReference.hi[i] - hi) < 1e-6);
            QVERIFY(std::abs(d->scoreChosen.hi[i] - hi) < 1e-6);
            QCOMPARE(d->difference.hi[i], 0.0);
        }
        QCOMPARE(d->changedIds, std::int64_t(30));
    }

    // A row too long for a preview's budget gets one: each pixel's band from some of its tokens,
    // their scores exactly, inside the full band, the changed ids counted over the whole row;
    // said to be a preview. Once the row is kept, no preview.
    void effectPreview()
    {
        constexpr int kCols = 8192, kPad = 1000, kPixels = 64;
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"128"_s},
                               {u"head-dim"_s, u"128"_s},
                               {u"max-len"_s, QString::number(kCols)},
                               {u"batch"_s, u"left:%1,%2"_s.arg(kCols - kPad).arg(kCols)},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const auto score = [](std::int64_t delta) {
            double sum = 0.0;
            for (int i = 0; i < 64; ++i)
                sum += std::cos(double(delta) / std::pow(10000.0, 2.0 * i / 128.0));
            return sum / 64.0;
        };
        const auto engine = std::make_shared<const Engine>(p);
        const QList<PanelExtent> panels = {extent(kPixels, 80, -0.5, kCols - 0.5, 0, 1)};
        const FigureModel &model = FigureBuilds::figure(u"position-effect"_s).model();
        FigureRequest request;
        request.engine = engine;
        request.panels = panels;
        QVERIFY(model.hasPreview(request));
        const auto preview = computed<PositionEffectData>(u"position-effect"_s, p, panels, {}, Detail::Preview, engine);
        QVERIFY(preview->preview);
        QCOMPARE(preview->changedIds, std::int64_t(kCols - kPad));
        // Each end of a pixel's band is the exact score of one of the pixel's real tokens.
        const auto someToken = [&](int i, double value) {
            for (std::int64_t c = std::max<std::int64_t>(kPad, kCols * i / kPixels); c < kCols * (i + 1) / kPixels; ++c)
                if (std::abs(score(c - kPad) - value) < 1e-12)
                    return true;
            return false;
        };
        for (int i = 0; i < kPixels; ++i) {
            if (kCols * (i + 1) / kPixels <= kPad) {
                QVERIFY(std::isnan(preview->scoreReference.lo[i]));
                continue;
            }
            QVERIFY(someToken(i, preview->scoreReference.lo[i]));
            QVERIFY(someToken(i, preview->scoreReference.hi[i]));
            QVERIFY(someToken(i, preview->scoreChosen.hi[i]));
        }
        const auto full = computed<PositionEffectData>(u"position-effect"_s, p, panels, {}, Detail::Full, engine);
        QVERIFY(!full->preview);
        QCOMPARE(full->changedIds, preview->changedIds);
        for (int i = 0; i < kPixels; ++i) {
            if (std::isnan(preview->scoreReference.lo[i]))
                continue;
            QVERIFY(preview->scoreReference.lo[i] >= full->scoreReference.lo[i] - 1e-6); // float32 cells
            QVERIFY(preview->scoreReference.hi[i] <= full->scoreReference.hi[i] + 1e-6);
        }
        QVERIFY(!model.hasPreview(request)); // the row is kept
        request.engine = std::make_shared<const Engine>(with({{u"encoding"_s, u"rope"_s}, {u"max-len"_s, u"40"_s}}));
        QVERIFY(!model.hasPreview(request)); // within a preview's budget
    }

    // Two views of the same row of one engine over the same pixels share one preview: asked from
    // two threads at once, both get the bands of the row's exact scores. Another engine at the same
    // row and pixels (another theta) gets its own, never the first one's.
    void effectPreviewShared()
    {
        constexpr int kCols = 8192, kPad = 1000, kPixels = 64;
        const auto params = [&](const QString &theta) {
            return with({{u"encoding"_s, u"rope"_s},
                         {u"d-model"_s, u"128"_s},
                         {u"head-dim"_s, u"128"_s},
                         {u"rope-theta"_s, theta},
                         {u"max-len"_s, QString::number(kCols)},
                         {u"batch"_s, u"left:%1,%2"_s.arg(kCols - kPad).arg(kCols)},
                         {u"ids-choice"_s, u"arange-with-padding"_s}});
        };
        const QList<PanelExtent> panels = {extent(kPixels, 80, -0.5, kCols - 0.5, 0, 1)};
        const auto inPixel = [&](double theta, int i, double value) {
            for (std::int64_t c = std::max<std::int64_t>(kPad, kCols * i / kPixels); c < kCols * (i + 1) / kPixels;
                 ++c) {
                double sum = 0.0;
                for (int k = 0; k < 64; ++k)
                    sum += std::cos(double(c - kPad) / std::pow(theta, 2.0 * k / 128.0));
                if (std::abs(sum / 64.0 - value) < 1e-12)
                    return true;
            }
            return false;
        };
        for (const double theta : {10000.0, 500000.0}) {
            const Params p = params(QString::number(theta));
            const auto engine = std::make_shared<const Engine>(p);
            std::shared_ptr<const PositionEffectData> views[2];
            std::thread other([&] {
                views[1] = computed<PositionEffectData>(u"position-effect"_s, p, panels, {}, Detail::Preview, engine);
            });
            views[0] = computed<PositionEffectData>(u"position-effect"_s, p, panels, {}, Detail::Preview, engine);
            other.join();
            for (const auto &view : views) {
                QVERIFY(view && view->preview);
                QCOMPARE(view->scoreReference.lo.size(), qsizetype(kPixels));
                for (int i = kPad * kPixels / kCols + 1; i < kPixels; ++i) {
                    QVERIFY2(inPixel(theta, i, view->scoreReference.lo[i]), qPrintable(u"pixel %1"_s.arg(i)));
                    QVERIFY(inPixel(theta, i, view->scoreReference.hi[i]));
                }
            }
            for (int i = 0; i < kPixels; ++i) {
                QCOMPARE(QByteArray::number(views[0]->scoreReference.lo[i], 'g', 17),
                         QByteArray::number(views[1]->scoreReference.lo[i], 'g', 17));
                QCOMPARE(QByteArray::number(views[0]->scoreChosen.hi[i], 'g', 17),
                         QByteArray::number(views[1]->scoreChosen.hi[i], 'g', 17));
            }
        }
    }

    // Dynamic NTK reads the batch's length, torch.max(position_ids) + 1: arange on a left-padded row
    // moves it, so the figure says the frequencies move; at a fixed rope_type they never do.
    void effectFrequenciesMove_data()
    {
        QTest::addColumn<QString>("ropeType");
        QTest::addColumn<QString>("batch");
        QTest::addColumn<bool>("moves");
        QTest::newRow("dynamic, one padded row") << u"dynamic"_s << u"left:30"_s << true;
        QTest::newRow("dynamic, a full row beside") << u"dynamic"_s << u"left:30,64"_s << false;
        QTest::newRow("default") << u"default"_s << u"left:30"_s << false;
    }
    void effectFrequenciesMove()
    {
        QFETCH(QString, ropeType);
        QFETCH(QString, batch);
        QFETCH(bool, moves);
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"d-model"_s, u"16"_s},
                               {u"head-dim"_s, u"16"_s},
                               {u"rope-type"_s, ropeType},
                               {u"rope-factor"_s, u"2"_s},
                               {u"original-max-len"_s, u"16"_s},
                               {u"max-len"_s, u"64"_s},
                               {u"batch"_s, batch},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const auto d = computed<PositionEffectData>(u"position-effect"_s, p, {extent(64, 80, -0.5, 63.5, 0, 1)});
        QCOMPARE(d->frequenciesMove, moves);
        QCOMPARE(d->referenceLength, batch == u"left:30"_s ? std::int64_t(30) : std::int64_t(64));
        QCOMPARE(d->chosenLength, std::int64_t(64));
        double largest = 0.0;
        for (const double v : d->difference.hi)
            if (std::isfinite(v))
                largest = std::max(largest, std::abs(v));
        QCOMPARE(largest > 1e-3, moves);
    }

    // A pixel of the distances is the mean of its attended pairs' id(q) − id(k), counted one by one.
    void distanceMeans()
    {
        const Params p = with({{u"max-len"_s, u"9"_s}, {u"packed"_s, u"3,4,2"_s}});
        const std::vector<int> document = {0, 0, 0, 1, 1, 1, 1, 2, 2};
        const std::vector<int> restarted = {0, 1, 2, 0, 1, 2, 3, 0, 1};
        const QList<PanelExtent> panels = {extent(3, 3, -0.5, 8.5, -0.5, 8.5), extent(3, 3, -0.5, 8.5, -0.5, 8.5)};
        const auto d = computed<DocumentDistanceData>(u"document-distance"_s, p, panels);
        QCOMPARE(d->compare, IdsChoice::RestartedWithoutBlockMask);
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                double sums[2] = {0.0, 0.0};
                int counts[2] = {0, 0};
                for (int q = 3 * a; q < 3 * a + 3; ++q)
                    for (int k = 3 * b; k <= std::min(q, 3 * b + 2); ++k)
                        for (int panel = 0; panel < 2; ++panel)
                            if (panel == 1 || document[std::size_t(q)] == document[std::size_t(k)]) {
                                sums[panel] += restarted[std::size_t(q)] - restarted[std::size_t(k)];
                                ++counts[panel];
                            }
                const HeatmapGrid *grids[2] = {&d->reference, &d->compared};
                for (int panel = 0; panel < 2; ++panel) {
                    if (counts[panel] == 0)
                        QVERIFY(std::isnan(grids[panel]->at(a, b)));
                    else
                        QCOMPARE(grids[panel]->at(a, b), float(sums[panel] / counts[panel]));
                }
            }
        }
        QCOMPARE(d->comparedCounts.cross, std::int64_t(26));
        QCOMPARE(d->comparedCounts.crossNegative, std::int64_t(11));
    }

    // Whatever panels little room gives up, the lowest panel drawn numbers and names the columns:
    // at a column and at 6 x 4 cm the absolute parts' panel of a Llama 4 batch goes, and the
    // difference's panel above it keeps the columns' numbers.
    void effectKeepsItsColumnsNumbered()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"max-len"_s, u"2000"_s},
                               {u"batch"_s, u"left:500,2000"_s},
                               {u"attn-scale"_s, u"0.1"_s},
                               {u"attention-chunk"_s, u"1024"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        for (const QSizeF cm : {QSizeF(8.5, 6.0), QSizeF(6.0, 4.0), QSizeF(25.4, 14.29)}) {
            const auto built = FigureBuilds::build(u"position-effect"_s, p, FigureSize::fromInches(cm / 2.54, 300.0));
            QCOMPARE(FigureBuilds::errorOf(*built), QString());
            const QCPAxisRect *lowest = nullptr;
            for (QCPAxisRect *rect : built->plot()->axisRects()) {
                bool shown = rect->realVisibility();
                for (const QCPLayoutElement *at = rect; at && shown; at = at->layout())
                    shown = !FigureRoom::Changes::isHidden(at);
                if (shown && (!lowest || rect->rect().bottom() > lowest->rect().bottom()))
                    lowest = rect;
            }
            QVERIFY(lowest);
            const QString size = u"%1 x %2 cm"_s.arg(cm.width()).arg(cm.height());
            QVERIFY2(lowest->axis(QCPAxis::atBottom)->tickLabels(), qPrintable(size));
            // Its label along its axis or in the row of its tick labels (FigureRoom::shownLabel).
            QVERIFY2(FigureRoom::shownLabel(lowest->axis(QCPAxis::atBottom)) == u"column"_s, qPrintable(size));
        }
    }

    // A family's own quantity keeps its name on a 14-pt slide, as its axis in the window: DeBERTa's
    // first panel draws the bucket index (to 521 at 9,191 keys back), ALiBi's its bias; "score" there
    // called a bucket a score. RoPE's score, a long formula in the window, reads "score".
    void effectNamesAFamilysOwnQuantity_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("name");
        QTest::newRow("deberta") << u"deberta"_s << u"DeBERTa bucket"_s;
        QTest::newRow("alibi") << u"alibi"_s << u"ALiBi bias"_s;
        QTest::newRow("rope") << u"rope"_s << u"score"_s;
    }

    void effectNamesAFamilysOwnQuantity()
    {
        QFETCH(QString, encoding);
        QFETCH(QString, name);
        const Params p = with({{u"encoding"_s, encoding},
                               {u"max-len"_s, u"2000"_s},
                               {u"batch"_s, u"left:500,2000"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        // Half a slide at 14 pt, as left-padding's page gives it.
        FigureStyle style;
        style.fontPointSize = 14.0;
        const auto built = FigureBuilds::build(u"position-effect"_s, p,
                                               FigureSize::fromInches(QSizeF(12.7, 14.29) / 2.54, 300.0), {}, style);
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        const QStringList texts = FigureBuilds::texts(*built->plot());
        QVERIFY2(texts.contains(u"%1 vs the document's first token"_s.arg(name)), qPrintable(texts.join(u" | "_s)));
        if (name != u"score"_s)
            QVERIFY2(!texts.contains(u"score vs the document's first token"_s), qPrintable(texts.join(u" | "_s)));
    }

    // The packing slide for T5 titled its map "Position ids" of restarted ids as if T5 read them:
    // T5Attention.compute_bias builds its buckets from arange(query_length) and arange(key_length),
    // DeBERTa's build_relative_position from the sizes, MPT's and BLOOM's ALiBi from the columns or
    // the mask. The map of a model that reads no ids says so in its title's first part, kept on a
    // 14-pt slide; RoPE's, whose code reads them, does not.
    void idsMapOfAModelThatReadsNoneSaysSo_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<bool>("reads");
        QTest::newRow("t5") << u"t5"_s << false;
        QTest::newRow("deberta") << u"deberta"_s << false;
        QTest::newRow("alibi") << u"alibi"_s << false;
        QTest::newRow("rope") << u"rope"_s << true;
        QTest::newRow("learned") << u"learned"_s << true;
    }

    void idsMapOfAModelThatReadsNoneSaysSo()
    {
        QFETCH(QString, encoding);
        QFETCH(bool, reads);
        const Params p = with({{u"encoding"_s, encoding},
                               {u"max-len"_s, u"9"_s},
                               {u"packed"_s, u"3,4,2"_s},
                               {u"ids-choice"_s, u"restarted-without-block-mask"_s}});
        FigureStyle style;
        style.fontPointSize = 14.0;
        const auto built = FigureBuilds::build(u"position-ids"_s, p,
                                               FigureSize::fromInches(QSizeF(12.7, 14.29) / 2.54, 300.0), {}, style);
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        const QString title = FigureRoom::fullTitle(*built->plot());
        QCOMPARE(title.section(u"  ·  "_s, 0, 0).contains(u"never read"_s), !reads);
        const QString drawn = FigureBuilds::texts(*built->plot()).join(u" | "_s);
        QCOMPARE(drawn.contains(u"never"_s), !reads);
    }

    // Llama 4's temperature at the reference's id (the token's own position) is drawn beside the one
    // at the column, each pixel's band log1p(floor((id + 1) / 128)) * 0.1 + 1 over its real tokens;
    // arange's ids are the columns, so its temperature is the column's, drawn once and said so.
    void effectTemperatureAtTheReferencesId()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"max-len"_s, u"2000"_s},
                               {u"batch"_s, u"left:500,2000"_s},
                               {u"attn-scale"_s, u"0.1"_s},
                               {u"floor-scale"_s, u"128"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        const auto temperature
            = [](std::int64_t at) { return std::log1p(std::floor(double(at + 1) / 128.0)) * 0.1 + 1.0; };
        const auto d = computed<PositionEffectData>(u"position-effect"_s, p, {extent(20, 80, -0.5, 1999.5, 0, 1)});
        QCOMPARE(d->x.size(), 20);
        // Row 0's real tokens: columns 1500..1999, ids 0..499; the table's cells are float32.
        for (int i = 15; i < 20; ++i) {
            const std::int64_t first = 100 * i, last = 100 * i + 99;
            QVERIFY(std::abs(d->temperatureReference.lo[i] - temperature(first - 1500)) < 1e-6);
            QVERIFY(std::abs(d->temperatureReference.hi[i] - temperature(last - 1500)) < 1e-6);
            QVERIFY(std::abs(d->temperatureCache.hi[i] - temperature(last)) < 1e-6);
            QVERIFY(std::abs(d->temperatureIds.hi[i] - temperature(last)) < 1e-6);
        }
        const auto built
            = FigureBuilds::build(u"position-effect"_s, p, FigureSize::fromInches(QSizeF(25.4, 14.29) / 2.54, 300.0));
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        QStringList drawn;
        for (int g = 0; g < built->plot()->graphCount(); ++g) {
            const QCPGraph *graph = built->plot()->graph(g);
            if (graph->visible() && graph->name().contains(u"temperature"_s))
                drawn << graph->name();
        }
        QCOMPARE(drawn.size(), 2);
        QVERIFY2(drawn.filter(QRegularExpression(u"\\(ref|reference's id"_s)).size() == 1,
                 qPrintable(drawn.join(u", "_s)));
        QVERIFY2(drawn.filter(QRegularExpression(u"column|cache_position"_s)).size() == 1,
                 qPrintable(drawn.join(u", "_s)));
    }

    void slides()
    {
        RelativeSlides::check(u"position-ids"_s,
                              {{u"left-padded"_s,
                                with({{u"max-len"_s, u"64"_s},
                                      {u"batch"_s, u"left:40,48,9"_s},
                                      {u"cache"_s, u"48"_s},
                                      {u"ids-choice"_s, u"arange-with-padding"_s}})}});
        RelativeSlides::check(
            u"position-effect"_s,
            {{u"llama4"_s,
              with({{u"encoding"_s, u"rope"_s},
                    {u"max-len"_s, u"20000"_s},
                    {u"batch"_s, u"left:5000,20000"_s},
                    {u"attn-scale"_s, u"0.1"_s},
                    {u"attention-chunk"_s, u"8192"_s},
                    {u"ids-choice"_s, u"arange-with-padding"_s}})},
             {u"sinusoid"_s,
              with({{u"max-len"_s, u"64"_s}, {u"batch"_s, u"left:30,64"_s}, {u"ids-choice"_s, u"off-by-one"_s}})}});
        RelativeSlides::check(u"document-distance"_s,
                              {{u"packed"_s, with({{u"max-len"_s, u"3000"_s}, {u"packed"_s, u"300,2000,700"_s}})}});
    }
};

POSENC_TEST_MAIN(TestPositionsFigures)
} // namespace tst_positionsfigures
#include "tst_positionsfigures.moc"
