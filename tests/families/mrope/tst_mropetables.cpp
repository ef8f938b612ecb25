// Multimodal RoPE's tables in the engine (mrope-positions, mrope-axes, mrope-cos, mrope-sin)
// against the float64 references of tests/support/MropeReference.h (get_rope_index in both
// transformers eras, the chunked and interleaved axes); cos and sin in float64 from
// inv_freq = 1 / theta^(2j / d). The literal ids are the reference's own output for these prompts.
#include "core/EngineTable.h"
#include "support/MropeReference.h"
#include "support/TestMain.h"

#include "core/Description.h"
#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/mrope/MropePrompt.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>

namespace tst_mropetables {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

using mroperef::Ids;
using mroperef::Segment;
using mroperef::Table;

Params mrope(const QString &prompt, const QString &vision = u"qwen2-vl"_s, const QString &era = u"v4"_s)
{
    Params p;
    p.encoding = Encoding::Mrope;
    p.dropout = 0.0;
    const QList<std::pair<QString, QString>> values
        = {{u"prompt"_s, prompt}, {u"vision-positions"_s, vision}, {u"mrope-era"_s, era}};
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s", qPrintable(error->sentence()));
    }
    return p;
}

// ids[axis] of every token, and the kinds, from the engine.
Table positions(const Params &p)
{
    const Engine engine(p);
    const Shape shape = engine.shape(Quantity::MropePositions);
    const RowMatrixXf m = testing::computeTable(engine, Quantity::MropePositions, {0, shape.rows, 0, 4});
    Table out;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        out.kind.push_back(std::int64_t(m(r, 0)));
        out.t.push_back(std::int64_t(m(r, 1)));
        out.h.push_back(std::int64_t(m(r, 2)));
        out.w.push_back(std::int64_t(m(r, 3)));
    }
    return out;
}

QString axesText(const std::vector<int> &axes)
{
    QString s;
    for (const int a : axes)
        s += QStringLiteral("THW")[a];
    return s;
}

} // namespace

class tst_MropeTables : public QObject
{
    Q_OBJECT

private slots:
    void workedIds_data();
    void workedIds();
    void randomPromptsEqualReference();
    void temporalProducts_data();
    void temporalProducts();
    void axes_data();
    void axes();
    void cosSinEqualFloat64_data();
    void cosSinEqualFloat64();
    void workedRotation();
    void blocksEqualWholeTable();
    void millionTokensBlockByBlock();
    void badInputNamesTheFlag_data();
    void badInputNamesTheFlag();
};

void tst_MropeTables::workedIds_data()
{
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("vision");
    QTest::addColumn<QString>("era");
    QTest::addColumn<Ids>("t");
    QTest::addColumn<Ids>("h");
    QTest::addColumn<Ids>("w");
    QTest::addColumn<qint64>("delta");
    const QString prompt = u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s;
    const Ids h2 = {0, 1, 2, 3, 4, 5, 5, 5, 6, 6, 6, 8, 9, 10, 11, 11, 12, 12, 11, 11, 12, 12, 13, 14};
    const Ids w2 = {0, 1, 2, 3, 4, 5, 6, 7, 5, 6, 7, 8, 9, 10, 11, 12, 11, 12, 11, 12, 11, 12, 13, 14};
    // The 2 x 3 merged image costs max(1, 2, 3) = 3 positions (5..7), not 6: text resumes at 8.
    QTest::newRow("qwen2-vl v4") << prompt << u"qwen2-vl"_s << u"v4"_s
                                 << Ids {0, 1,  2,  3,  4,  5,  5,  5,  5,  5,  5,  8,
                                         9, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 14}
                                 << h2 << w2 << qint64(-9);
    QTest::newRow("qwen2-vl v5") << prompt << u"qwen2-vl"_s << u"v5"_s
                                 << Ids {0, 1,  2,  3,  4,  5,  5,  5,  5,  5,  5,  8,
                                         9, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13, 14}
                                 << h2 << w2 << qint64(-9);
    // tokens_per_second 2, second_per_grid 1: the second grid at t = 11 + 2.
    QTest::newRow("qwen2.5-vl v4")
        << prompt << u"qwen2.5-vl"_s << u"v4"_s
        << Ids {0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 8, 9, 10, 11, 11, 11, 11, 13, 13, 13, 13, 14, 15}
        << Ids {0, 1, 2, 3, 4, 5, 5, 5, 6, 6, 6, 8, 9, 10, 11, 11, 12, 12, 11, 11, 12, 12, 14, 15}
        << Ids {0, 1, 2, 3, 4, 5, 6, 7, 5, 6, 7, 8, 9, 10, 11, 12, 11, 12, 11, 12, 11, 12, 14, 15} << qint64(-8);
    // 5.x: the text after starts at 11 + max(4, 4) // 2 = 13, on the second grid's t.
    QTest::newRow("qwen2.5-vl v5") << prompt << u"qwen2.5-vl"_s << u"v5"_s
                                   << Ids {0, 1,  2,  3,  4,  5,  5,  5,  5,  5,  5,  8,
                                           9, 10, 11, 11, 11, 11, 13, 13, 13, 13, 13, 14}
                                   << h2 << w2 << qint64(-9);
    // Six timestamp tokens: the video's frames are two (1, 4, 4) spans 8 text tokens apart.
    QTest::newRow("qwen3-vl") << prompt << u"qwen3-vl"_s << u"v4"_s
                              << Ids {0,  1,  2,  3,  4,  5,  5,  5,  5,  5,  5,  8,  9,  10, 11, 11,
                                      11, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 21, 21, 21, 23, 24}
                              << Ids {0,  1,  2,  3,  4,  5,  5,  5,  6,  6,  6,  8,  9,  10, 11, 11,
                                      12, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 21, 22, 22, 23, 24}
                              << Ids {0,  1,  2,  3,  4,  5,  6,  7,  5,  6,  7,  8,  9,  10, 11, 12,
                                      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 21, 22, 23, 24}
                              << qint64(-7);
    // The Qwen2.5-VL docstring: a 3 x 4 x 4 video at 25 tokens a second, 2 s a grid, then 5 text
    // tokens: t 0, 50, 100 and the text at 101 in 4.x; in 5.x the text restarts at 2.
    const QString docstring = u"video:3x4x4@2,text:5"_s;
    const Ids vt = {0, 0, 0, 0, 50, 50, 50, 50, 100, 100, 100, 100};
    const Ids vh = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
    const Ids vw = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    const auto then = [](Ids ids, std::int64_t from) {
        for (std::int64_t i = 0; i < 5; ++i)
            ids.push_back(from + i);
        return ids;
    };
    QTest::newRow("docstring v4") << docstring << u"qwen2.5-vl"_s << u"v4"_s << then(vt, 101) << then(vh, 101)
                                  << then(vw, 101) << qint64(89);
    QTest::newRow("docstring v5") << docstring << u"qwen2.5-vl"_s << u"v5"_s << then(vt, 2) << then(vh, 2)
                                  << then(vw, 2) << qint64(84);
    // PR #48669: 0.5 s a grid at 2 tokens a second keeps its fraction: 1..8, not 0 for every grid.
    QTest::newRow("fraction v4") << u"text:1,video:8x2x2@0.5,text:1"_s << u"qwen2.5-vl"_s << u"v4"_s
                                 << Ids {0, 1, 2, 3, 4, 5, 6, 7, 8, 9} << Ids {0, 1, 1, 1, 1, 1, 1, 1, 1, 9}
                                 << Ids {0, 1, 1, 1, 1, 1, 1, 1, 1, 9} << qint64(0);
    QTest::newRow("fraction v5") << u"text:1,video:8x2x2@0.5,text:1"_s << u"qwen2.5-vl"_s << u"v5"_s
                                 << Ids {0, 1, 2, 3, 4, 5, 6, 7, 8, 2} << Ids {0, 1, 1, 1, 1, 1, 1, 1, 1, 2}
                                 << Ids {0, 1, 1, 1, 1, 1, 1, 1, 1, 2} << qint64(-1);
}

void tst_MropeTables::workedIds()
{
    QFETCH(QString, prompt);
    QFETCH(QString, vision);
    QFETCH(QString, era);
    QFETCH(Ids, t);
    QFETCH(Ids, h);
    QFETCH(Ids, w);
    QFETCH(qint64, delta);
    Params p = mrope(prompt, vision, era);
    p.mrope.tokensPerSecond = prompt.startsWith(u"video:3"_s) ? 25.0 : 2.0;
    const Table table = positions(p);
    QCOMPARE(table.t, t);
    QCOMPARE(table.h, h);
    QCOMPARE(table.w, w);
    const MropeLayout layout(p);
    QCOMPARE(layout.ropeDelta(), delta);
    // The first generated token sits at max + 1 on all three axes: cache position + rope_deltas.
    const std::int64_t most = std::max({*std::max_element(t.begin(), t.end()), *std::max_element(h.begin(), h.end()),
                                        *std::max_element(w.begin(), w.end())});
    QCOMPARE(layout.maxId(), most);
}

void tst_MropeTables::randomPromptsEqualReference()
{
    QRandomGenerator random(49);
    const QStringList visions = {u"qwen2-vl"_s, u"qwen2.5-vl"_s, u"qwen3-vl"_s};
    for (int trial = 0; trial < 300; ++trial) {
        const QString vision = visions[trial % 3];
        const QString era = (trial / 3) % 2 ? u"v5"_s : u"v4"_s;
        const std::int64_t merge = 1 + random.bounded(3);
        const double tps = std::vector<double> {1, 2, 4, 25}[random.bounded(4)];
        const double seconds = std::vector<double> {1.0, 0.5, 2.0, 0.083, 0.08, 1.0 / 3}[random.bounded(6)];
        const std::int64_t timestamp = random.bounded(9);
        std::vector<Segment> segments;
        QStringList words;
        for (int s = 0; s < 1 + random.bounded(6); ++s) {
            const int kind = random.bounded(3);
            if (kind == 0) {
                const std::int64_t n = 1 + random.bounded(7);
                segments.push_back({0, n, 0, 0, 0, 0.0});
                words.append(u"text:%1"_s.arg(n));
            } else {
                const std::int64_t t = 1 + random.bounded(kind == 1 ? 2 : 6);
                const std::int64_t h = merge * (1 + random.bounded(4)), w = merge * (1 + random.bounded(4));
                segments.push_back({kind, 0, t, h, w, seconds});
                words.append(u"%1:%2x%3x%4"_s.arg(kind == 1 ? u"image"_s : u"video"_s).arg(t).arg(h).arg(w));
            }
        }
        Params p = mrope(words.join(u','), vision, era);
        p.mrope.spatialMergeSize = merge;
        p.mrope.tokensPerSecond = tps;
        p.mrope.secondPerGrid = seconds;
        p.mrope.timestampTokens = timestamp;
        QVERIFY2(p.isValid(), qPrintable(words.join(u',')));
        const Table got = positions(p);
        const Table want = mroperef::ropeIndex(segments, vision, era, merge, tps, timestamp);
        const QByteArray what = u"%1 %2 %3 merge %4"_s.arg(words.join(u','), vision, era).arg(merge).toUtf8();
        QVERIFY2(got.kind == want.kind, what.constData());
        QVERIFY2(got.t == want.t, what.constData());
        QVERIFY2(got.h == want.h, what.constData());
        QVERIFY2(got.w == want.w, what.constData());
    }
}

void tst_MropeTables::temporalProducts_data()
{
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("tps");
    QTest::addColumn<QString>("era");
    QTest::addColumn<Ids>("offsets");
    // 0.083 s a grid at 2 tokens a second: trunc(k · 0.166), 0 for the first seven grids, in both
    // eras (5.0-5.3 truncated 0.083 alone and gave 0 for all).
    const Ids truncated = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2};
    QTest::newRow("0.083 v4") << 0.083 << 2.0 << u"v4"_s << truncated;
    QTest::newRow("0.083 v5") << 0.083 << 2.0 << u"v5"_s << truncated;
    // 25 fps, 25 tokens a second: 4.x's float32 k · 0.08 first gives 5 · 0.08 = 0.39999998 -> 9;
    // 5.x's tps · spg first gives 2 exactly.
    QTest::newRow("0.08 v4") << 0.08 << 25.0 << u"v4"_s << Ids {0, 2, 4, 6, 8, 9, 12, 14, 16, 18, 19, 22};
    QTest::newRow("0.08 v5") << 0.08 << 25.0 << u"v5"_s << Ids {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22};
}

void tst_MropeTables::temporalProducts()
{
    QFETCH(double, seconds);
    QFETCH(double, tps);
    QFETCH(QString, era);
    QFETCH(Ids, offsets);
    Params p = mrope(u"video:%1x2x2"_s.arg(offsets.size()), u"qwen2.5-vl"_s, era);
    p.mrope.tokensPerSecond = tps;
    p.mrope.secondPerGrid = seconds;
    QCOMPARE(positions(p).t, offsets);
    // The grids whose time was truncated onto the grid before's, which describe reports.
    std::int64_t collapsed = 0;
    for (std::size_t k = 1; k < offsets.size(); ++k)
        collapsed += offsets[k] == offsets[k - 1] ? 1 : 0;
    QCOMPARE(MropeLayout(p).collapsedGrids(), collapsed);
}

void tst_MropeTables::axes_data()
{
    QTest::addColumn<Ids>("section");
    QTest::addColumn<bool>("interleaved");
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<QString>("expected");
    QTest::newRow("qwen2.5-vl chunked") << Ids {16, 24, 24} << false << qint64(128)
                                        << QString(16, u'T') + QString(24, u'H') + QString(24, u'W');
    QTest::newRow("qwen3-vl interleaved")
        << Ids {24, 20, 20} << true << qint64(128) << u"THW"_s.repeated(20) + u"TTTT"_s;
    // [16, 24, 24] fed to the interleave runs off the end (3 · 24 > 64): h and w take 21 pairs.
    QTest::newRow("chunked section interleaved")
        << Ids {16, 24, 24} << true << qint64(128) << u"THW"_s.repeated(21) + u"T"_s;
    QTest::newRow("small chunked") << Ids {2, 3, 3} << false << qint64(16) << u"TTHHHWWW"_s;
}

void tst_MropeTables::axes()
{
    QFETCH(Ids, section);
    QFETCH(bool, interleaved);
    QFETCH(qint64, headDim);
    QFETCH(QString, expected);
    Params p = mrope(u"text:3"_s);
    p.mrope.section = section;
    p.mrope.interleaved = interleaved;
    p.rope.headDim = headDim;
    p.rope.theta = 1e6;
    QVERIFY(p.isValid());
    const Engine engine(p);
    const RowMatrixXf m = testing::computeTable(engine, Quantity::MropeAxes, {0, headDim / 2, 0, 3});
    const std::vector<int> reference
        = interleaved ? mroperef::interleavedAxes(section, headDim / 2) : mroperef::chunkedAxes(section);
    QCOMPARE(axesText(reference), expected);
    std::vector<int> got;
    for (Eigen::Index j = 0; j < m.rows(); ++j) {
        QCOMPARE(m(j, 0), float(j));
        got.push_back(int(m(j, 1)));
        const double inv = 1.0 / std::pow(1e6, double(2 * j) / double(headDim));
        QVERIFY(std::abs(double(m(j, 2)) - inv) <= 1e-6 * inv);
    }
    QCOMPARE(axesText(got), expected);
    // describe says whether each axis owns its section's count of pairs.
    const auto entries = Description::entries(p);
    QVERIFY(entries);
    const auto honoured = std::find_if(entries->begin(), entries->end(),
                                       [](const auto &entry) { return entry.first == u"section_honoured"_s; });
    QVERIFY(honoured != entries->end());
    QCOMPARE(std::get<bool>(honoured->second), QTest::currentDataTag() != QByteArray("chunked section interleaved"));
}

void tst_MropeTables::cosSinEqualFloat64_data()
{
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<QString>("vision");
    QTest::addColumn<bool>("interleaved");
    QTest::addColumn<QString>("layout");
    QTest::newRow("qwen2-vl chunked") << u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s << u"qwen2-vl"_s << false
                                      << u"half"_s;
    QTest::newRow("qwen3-vl interleaved")
        << u"text:5,image:1x8x6,text:3,video:3x4x4,text:2"_s << u"qwen3-vl"_s << true << u"half"_s;
    QTest::newRow("gpt-j pairs") << u"text:2,image:1x32x64,text:4"_s << u"qwen2.5-vl"_s << false << u"interleaved"_s;
}

void tst_MropeTables::cosSinEqualFloat64()
{
    QFETCH(QString, prompt);
    QFETCH(QString, vision);
    QFETCH(bool, interleaved);
    QFETCH(QString, layout);
    Params p = mrope(prompt, vision);
    p.rope.theta = interleaved ? 5e6 : 1e6;
    p.mrope.interleaved = interleaved;
    p.mrope.section = interleaved ? Ids {24, 20, 20} : Ids {16, 24, 24};
    QVERIFY(!ParamText::set(p, u"rope-layout"_s, layout));
    QVERIFY(p.isValid());
    const Engine engine(p);
    const Table ids = positions(p);
    const auto n = Eigen::Index(ids.t.size());
    const RowMatrixXf cos = testing::computeTable(engine, Quantity::MropeCos, {0, n, 0, 128});
    const RowMatrixXf sin = testing::computeTable(engine, Quantity::MropeSin, {0, n, 0, 128});
    const std::vector<int> axes
        = interleaved ? mroperef::interleavedAxes(p.mrope.section, 64) : mroperef::chunkedAxes(p.mrope.section);
    double worst = 0.0;
    for (Eigen::Index r = 0; r < n; ++r) {
        const std::int64_t id[3] = {ids.t[std::size_t(r)], ids.h[std::size_t(r)], ids.w[std::size_t(r)]};
        for (Eigen::Index c = 0; c < 128; ++c) {
            const std::int64_t j = layout == u"half"_s ? c % 64 : c / 2;
            const double angle = double(id[axes[std::size_t(j)]]) / std::pow(p.rope.theta, double(2 * j) / 128.0);
            worst = std::max(
                {worst, std::abs(double(cos(r, c)) - std::cos(angle)), std::abs(double(sin(r, c)) - std::sin(angle))});
        }
    }
    QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
}

void tst_MropeTables::workedRotation()
{
    // Token (t, h, w) = (11, 12, 11) of the Qwen2-VL prompt, theta 1e6, chunked [16, 24, 24]: pair
    // 0 turns by t, pair 16 by h, pair 40 by w; dims j + 64 repeat dims j.
    Params p = mrope(u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s);
    p.rope.theta = 1e6;
    const Engine engine(p);
    const RowMatrixXf cos = testing::computeTable(engine, Quantity::MropeCos, {16, 1, 0, 128});
    const RowMatrixXf sin = testing::computeTable(engine, Quantity::MropeSin, {16, 1, 0, 128});
    const std::vector<std::tuple<int, double, double>> cells = {{0, 0.004425697988, -0.999990206551},
                                                                {16, 0.928859863447, 0.370431308176},
                                                                {40, 0.999998086823, 0.001956106104}};
    for (const auto &[j, c, s] : cells) {
        QVERIFY(std::abs(double(cos(0, j)) - c) <= 1e-6 && std::abs(double(cos(0, j + 64)) - c) <= 1e-6);
        QVERIFY(std::abs(double(sin(0, j)) - s) <= 1e-6 && std::abs(double(sin(0, j + 64)) - s) <= 1e-6);
    }
}

void tst_MropeTables::blocksEqualWholeTable()
{
    Params p = mrope(u"text:7,image:1x6x10,text:2,video:4x6x4@0.5,text:3"_s, u"qwen2.5-vl"_s);
    const Engine engine(p);
    const Shape shape = engine.shape(Quantity::MropeCos);
    const RowMatrixXf whole = testing::computeTable(engine, Quantity::MropeCos, {0, shape.rows, 0, shape.cols}, 2);
    for (const Block b : {Block {3, 20, 5, 70}, Block {40, 1, 127, 1}, Block {0, shape.rows, 64, 64}}) {
        const RowMatrixXf part = testing::computeTable(engine, Quantity::MropeCos, b, 1);
        QCOMPARE(part, whole.block(b.row0, b.col0, b.rows, b.cols));
    }
}

void tst_MropeTables::millionTokensBlockByBlock()
{
    // A prompt of 1,000,000 tokens: its table is cut into blocks within the memory budget, and any
    // block is computed alone from its rows' spans.
    Params p = mrope(u"text:10,video:1000x40x40,text:599990"_s, u"qwen2.5-vl"_s);
    p.memoryBudget = std::uint64_t(64) << 20;
    const Engine engine(p);
    QCOMPARE(engine.shape(Quantity::MropeCos).rows, 1000000);
    QVERIFY(engine.check(Quantity::MropeCos, {0, 1000000, 0, 128}).has_value());
    const RowMatrixXf ids = testing::computeTable(engine, Quantity::MropePositions, {399000, 5000, 0, 4});
    // Row 399000 is grid k = 997 of the video (400 tokens a grid) at t = 10 + 997 · 2; the text
    // after starts at the last grid's t + 1 = 10 + 999 · 2 + 1.
    QCOMPARE(ids(0, 1), float(10 + 997 * 2));
    QCOMPARE(ids(1010, 1), float(10 + 999 * 2 + 1));
    const RowMatrixXf cos = testing::computeTable(engine, Quantity::MropeCos, {999990, 10, 0, 128});
    const double last = double(10 + 999 * 2 + 1 + 599989);
    QVERIFY(std::abs(double(cos(9, 0)) - std::cos(last)) <= 1e-6);
    QVERIFY(std::abs(double(cos(9, 64)) - std::cos(last)) <= 1e-6);
}

void tst_MropeTables::badInputNamesTheFlag_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("words");
    QTest::newRow("section not summing") << u"mrope-section"_s << u"16,24,25"_s << u"they sum to 65"_s;
    QTest::newRow("two counts") << u"mrope-section"_s << u"32,32"_s << u"three counts"_s;
    QTest::newRow("unknown kind") << u"prompt"_s << u"text:3,audio:5"_s << u"unknown kind 'audio'"_s;
    QTest::newRow("grid of 0") << u"prompt"_s << u"image:1x0x4"_s << u"each an integer in [1, 16777216]"_s;
    QTest::newRow("not divisible") << u"prompt"_s << u"image:1x5x6"_s << u"not divisible by spatial-merge-size 2"_s;
    QTest::newRow("text without count") << u"prompt"_s << u"text"_s << u"text:N needs N"_s;
    QTest::newRow("image seconds") << u"prompt"_s << u"image:1x4x4@2"_s << u"only a video takes @SECONDS"_s;
    QTest::newRow("merge 0") << u"spatial-merge-size"_s << u"0"_s << u"an integer in [1, 64]"_s;
    QTest::newRow("tokens per second 0") << u"tokens-per-second"_s << u"0"_s << u"a number in (0, 1e6]"_s;
}

void tst_MropeTables::badInputNamesTheFlag()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, words);
    Params p = mrope(u"text:3"_s);
    QVERIFY(!ParamText::set(p, key, value));
    const QList<ParamError> errors = p.validate();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.front().key, key);
    QVERIFY2(errors.front().sentence().contains(words), qPrintable(errors.front().sentence()));
}

POSENC_TEST_GUILESS_MAIN(tst_MropeTables)
} // namespace tst_mropetables
#include "tst_mropetables.moc"
