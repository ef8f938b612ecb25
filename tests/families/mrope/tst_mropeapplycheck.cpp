// posenc check --apply --encoding mrope: Y = M-RoPE(X) written here as huggingface/transformers
// computes it in float32 for Qwen2-VL-7B (tests/data/configs/Qwen2-VL-7B-Instruct.json: head_dim
// 3584 / 28 = 128, rope_theta 1e6, mrope_section [16, 24, 24]): the ids of get_rope_index
// (modeling_qwen2_vl.py, the 4.x rule: a vision span's ids (k, i, j) + the running start, the next
// text at its largest id + 1; decode rows at cache position + rope_deltas), freqs = id_axis * inv_freq
// in float32, the axis of each pair as apply_multimodal_rotary_pos_emb splits cos (mrope_section * 2,
// chunk i from axis i % 3) or Qwen3-VL's apply_interleaved_mrope (modeling_qwen3_vl.py: h on pairs
// 1, 4, ... below 3 s_h, w on 2, 5, ... below 3 s_w), then q * cos + rotate_half(q) * sin. All of it
// in float64 formulas here, never from the code under test.
#include "support/RopeReference.h"
#include "support/TestMain.h"

#include "check/mrope/MropeApplyCheck.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace tst_mropeapplycheck {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

using MropeApplyCheck::RowIds;

constexpr std::int64_t kHeadDim = 128;
constexpr double kTheta = 1e6;
const QString kPrompt = u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s;

// get_rope_index of kPrompt with spatial_merge_size 2 (Qwen2-VL, 4.x), then `decode` rows at
// cache position + rope_deltas.
std::vector<RowIds> ropeIndex(std::int64_t decode)
{
    struct Segment
    {
        bool text;
        std::int64_t n, t, h, w;
    };
    const std::vector<Segment> segments {
        {true, 5, 0, 0, 0}, {false, 0, 1, 2, 3}, {true, 3, 0, 0, 0}, {false, 0, 2, 2, 2}, {true, 2, 0, 0, 0}};
    std::vector<RowIds> ids;
    std::int64_t start = 0, largest = -1;
    for (const Segment &s : segments) {
        if (s.text) {
            for (std::int64_t i = 0; i < s.n; ++i)
                ids.push_back({start + i, start + i, start + i});
            largest = start + s.n - 1;
            start += s.n;
            continue;
        }
        for (std::int64_t k = 0; k < s.t; ++k)
            for (std::int64_t i = 0; i < s.h; ++i)
                for (std::int64_t j = 0; j < s.w; ++j)
                    ids.push_back({start + k, start + i, start + j});
        largest = start + std::max({s.t - 1, s.h - 1, s.w - 1});
        start = largest + 1;
    }
    const auto tokens = std::int64_t(ids.size());
    const std::int64_t deltas = largest + 1 - tokens;
    for (std::int64_t n = 0; n < decode; ++n)
        ids.push_back({tokens + n + deltas, tokens + n + deltas, tokens + n + deltas});
    return ids;
}

// kPrompt's ids with the text after each vision block resuming at the token count (the 1-D
// position): each span from its first row, then `decode` rows continuing from the last.
std::vector<RowIds> countIndex(std::int64_t decode)
{
    std::vector<RowIds> ids;
    const auto text = [&](std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) {
            const auto at = std::int64_t(ids.size());
            ids.push_back({at, at, at});
        }
    };
    const auto grid = [&](std::int64_t t, std::int64_t h, std::int64_t w) {
        const auto start = std::int64_t(ids.size());
        for (std::int64_t k = 0; k < t; ++k)
            for (std::int64_t i = 0; i < h; ++i)
                for (std::int64_t j = 0; j < w; ++j)
                    ids.push_back({start + k, start + i, start + j});
    };
    text(5);
    grid(1, 2, 3);
    text(3);
    grid(2, 2, 2);
    text(2 + decode);
    return ids;
}

// The axis of each of 64 pairs: chunked (cumulative sections) or interleaved.
std::vector<int> axesOf(const std::vector<std::int64_t> &section, bool interleaved)
{
    std::vector<int> axis(kHeadDim / 2, 0);
    for (std::int64_t k = 0; k < kHeadDim / 2; ++k) {
        if (interleaved)
            axis[std::size_t(k)] = k % 3 == 1 && k < 3 * section[1] ? 1 : k % 3 == 2 && k < 3 * section[2] ? 2 : 0;
        else
            axis[std::size_t(k)] = k < section[0] ? 0 : k < section[0] + section[1] ? 1 : 2;
    }
    return axis;
}

struct Applied
{
    RowMatrixXf x, y;
};

Applied applied(const std::vector<RowIds> &ids, const std::vector<int> &axis)
{
    const auto rows = std::int64_t(ids.size());
    const std::int64_t h = kHeadDim / 2;
    std::mt19937 engine(49);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Applied a {RowMatrixXf(rows, kHeadDim), RowMatrixXf(rows, kHeadDim)};
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < kHeadDim; ++j)
            a.x(r, j) = normal(engine);
    const std::vector<double> inv = roperef::defaultInv(kTheta, kHeadDim);
    for (std::int64_t r = 0; r < rows; ++r) {
        const RowIds &id = ids[std::size_t(r)];
        for (std::int64_t j = 0; j < kHeadDim; ++j) {
            const std::int64_t k = j % h;
            const int which = axis[std::size_t(k)];
            const std::int64_t at = which == 0 ? id.t : which == 1 ? id.h : id.w;
            const float angle = float(at) * float(inv[std::size_t(k)]);
            const float turned = j < h ? -a.x(r, j + h) : a.x(r, j - h);
            a.y(r, j) = a.x(r, j) * std::cos(angle) + turned * std::sin(angle);
        }
    }
    return a;
}

MropeApplyCheck::Declared qwen2vl(bool prompt, bool interleaved = false,
                                  std::vector<std::int64_t> section = {16, 24, 24})
{
    MropeApplyCheck::Declared d;
    d.params.encoding = Encoding::Mrope;
    d.params.rope.headDim = kHeadDim;
    d.params.rope.theta = kTheta;
    d.params.mrope.section = std::move(section);
    d.params.mrope.interleaved = interleaved;
    d.params.mrope.prompt = kPrompt;
    d.prompt = prompt;
    return d;
}

// text:5,video:4x4x4,text:4 (merged 2 x 2): the text from 0, the video's grid k at t 5 + step k,
// the text after from `next`.
std::vector<RowIds> textVideoText(std::int64_t step, std::int64_t next)
{
    std::vector<RowIds> ids;
    for (std::int64_t r = 0; r < 5; ++r)
        ids.push_back({r, r, r});
    for (std::int64_t k = 0; k < 4; ++k)
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 2; ++j)
                ids.push_back({5 + step * k, 5 + i, 5 + j});
    for (std::int64_t r = 0; r < 4; ++r)
        ids.push_back({next + r, next + r, next + r});
    return ids;
}

MropeApplyCheck::Result checked(const Applied &a, const MropeApplyCheck::Declared &declared)
{
    auto result = MropeApplyCheck::check(a.x, a.y, declared);
    if (const auto *refused = std::get_if<QString>(&result))
        qFatal("refused: %s", qPrintable(*refused));
    return std::get<MropeApplyCheck::Result>(std::move(result));
}

} // namespace

class TestMropeApplyCheck : public QObject
{
    Q_OBJECT

private slots:
    // The prompt's 24 tokens and 8 decode rows: every id read, equal to get_rope_index's; correct.
    void idsAreRead_data()
    {
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<QList<qint64>>("section");
        QTest::newRow("Qwen2-VL, chunked [16, 24, 24]") << false << QList<qint64> {16, 24, 24};
        QTest::newRow("Qwen3-VL, interleaved [24, 20, 20]") << true << QList<qint64> {24, 20, 20};
    }
    void idsAreRead()
    {
        QFETCH(bool, interleaved);
        QFETCH(QList<qint64>, section);
        const std::vector<std::int64_t> s(section.begin(), section.end());
        const std::vector<RowIds> ids = ropeIndex(8);
        const Applied a = applied(ids, axesOf(s, interleaved));
        const MropeApplyCheck::Result r = checked(a, qwen2vl(true, interleaved, s));
        QVERIFY2(r.verdict == CheckVerdict::Correct, qPrintable(r.diagnosis + r.mistakes.join(u", "_s)));
        QVERIFY(r.ids == ids);
        QCOMPARE(r.section, s);
        QCOMPARE(r.interleaved, interleaved);
        QCOMPARE(r.promptTokens, std::int64_t(24));
        QCOMPARE(r.ropeDeltas.value_or(0), std::int64_t(-9));
        QCOMPARE(r.deviatingRows, std::int64_t(0));
        QVERIFY(r.idOffset && *r.idOffset == 0);
    }

    // Each mistake of the ids, made here, named against get_rope_index's.
    void idMistakesAreNamed_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("words");
        QTest::newRow("off by 3") << u"offset"_s << MropeMistakes::kIdsOffset << u"off by 3"_s;
        QTest::newRow("h and w exchanged")
            << u"swap"_s << MropeMistakes::kAxesSwapped << u"the h and w ids are exchanged"_s;
        QTest::newRow("temporal ids at 0")
            << u"temporal"_s << MropeMistakes::kTimeTruncated << u"temporal ids are truncated to 0"_s;
        QTest::newRow("decode at cache position")
            << u"cache"_s << MropeMistakes::kRopeDeltasLost << u"at their cache positions 24..31"_s;
        QTest::newRow("decode from 0") << u"restart"_s << MropeMistakes::kRopeDeltasLost
                                       << u"ids restarting from 0..7"_s;
        QTest::newRow("one image row elsewhere") << u"row"_s << MropeMistakes::kIdsDiffer << u"row 7"_s;
        // linkedin/Liger-Kernel#276: arange(L) on all three axes, the vision rows too.
        QTest::newRow("1-D positions") << u"1d"_s << MropeMistakes::kIdsDiffer << u"1-D text positions"_s;
        // The text after the image (rows 5..10) at 5 + 6 = 11, not 5 + max(0, 1, 2) + 1 = 8; the video's rows
        // and the text after them moved alike (each span to its first row).
        QTest::newRow("text at the token count") << u"count"_s << MropeMistakes::kIdsDiffer << u"token count"_s;
    }
    void idMistakesAreNamed()
    {
        QFETCH(QString, kind);
        QFETCH(QString, mistake);
        QFETCH(QString, words);
        std::vector<RowIds> ids = ropeIndex(8);
        for (std::size_t r = 0; r < ids.size(); ++r) {
            RowIds &i = ids[r];
            if (kind == u"offset"_s)
                i = {i.t + 3, i.h + 3, i.w + 3};
            if (kind == u"swap"_s)
                std::swap(i.h, i.w);
            // The video's rows 14..21 (ropeIndex: t 11 and 12): t left at the span's start, 11.
            if (kind == u"temporal"_s && r >= 14 && r < 22)
                i.t = 11;
            if ((kind == u"cache"_s || kind == u"restart"_s) && r >= 24) {
                const auto at = std::int64_t(kind == u"cache"_s ? r : r - 24);
                i = {at, at, at};
            }
            if (kind == u"row"_s && r == 7)
                i.w = 40;
            if (kind == u"1d"_s) {
                const auto at = std::int64_t(r);
                i = {at, at, at};
            }
        }
        if (kind == u"count"_s) // each span at its first row: text 0-4, image 5-10, text 11-13, video 14-21, text 22-23
            ids = countIndex(8);
        const Applied a = applied(ids, axesOf({16, 24, 24}, false));
        const MropeApplyCheck::Result r = checked(a, qwen2vl(true));
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QVERIFY2(r.mistakes == QStringList {mistake}, qPrintable(r.mistakes.join(u", "_s) + u" | "_s + r.diagnosis));
        QVERIFY2(r.diagnosis.contains(words), qPrintable(r.diagnosis));
        QVERIFY(r.ids == ids);
        QCOMPARE(r.deviatingRows, std::int64_t(0));
    }

    // A video of 4 grids, 2 s each at 2 tokens a second (t ids 0, 4, 8, 12 over 2 x 2 merged
    // patches): transformers 4.x's get_rope_index puts the text after it at the largest id + 1, 18;
    // 5.x's at its start + max(h, w), 8. Ids of the era not declared are named as such.
    void otherEraIsNamed_data()
    {
        QTest::addColumn<bool>("madeV5");
        QTest::newRow("5.x's ids, 4.x declared") << true;
        QTest::newRow("4.x's ids, 5.x declared") << false;
    }
    void otherEraIsNamed()
    {
        QFETCH(bool, madeV5);
        const std::vector<RowIds> ids = textVideoText(4, madeV5 ? 5 + 2 : 5 + 12 + 1);
        MropeApplyCheck::Declared d = qwen2vl(true);
        d.params.mrope.prompt = u"text:5,video:4x4x4@2,text:4"_s;
        d.params.mrope.vision = MropeVision::Qwen25Vl;
        d.params.mrope.tokensPerSecond = 2.0;
        d.params.mrope.era = madeV5 ? MropeEra::V4 : MropeEra::V5;
        const MropeApplyCheck::Result r = checked(applied(ids, axesOf({16, 24, 24}, false)), d);
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QVERIFY2(r.mistakes == QStringList {MropeMistakes::kOtherEra},
                 qPrintable(r.mistakes.join(u", "_s) + u" | "_s + r.diagnosis));
        QVERIFY2(r.diagnosis.contains(u"row 21"_s), qPrintable(r.diagnosis));
        QVERIFY(r.ids == ids);
        // The same ids against their own era are correct.
        d.params.mrope.era = madeV5 ? MropeEra::V5 : MropeEra::V4;
        QCOMPARE(checked(applied(ids, axesOf({16, 24, 24}, false)), d).verdict, CheckVerdict::Correct);
    }

    // Qwen2.5-VL's video at 1.5 s a grid and 2 tokens a second: get_rope_index's t ids are
    // trunc(k * 1.5 * 2) = 0, 3, 6, 9; with second_per_grid cast to the integer 1 first (4.x before
    // PR #48669) they are 0, 2, 4, 6 and the text after starts at 12, not 15.
    void fractionalTimeTruncatedIsNamed()
    {
        const std::vector<RowIds> ids = textVideoText(2, 12);
        MropeApplyCheck::Declared d = qwen2vl(true);
        d.params.mrope.prompt = u"text:5,video:4x4x4@1.5,text:4"_s;
        d.params.mrope.vision = MropeVision::Qwen25Vl;
        const MropeApplyCheck::Result r = checked(applied(ids, axesOf({16, 24, 24}, false)), d);
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QVERIFY2(r.mistakes == QStringList {MropeMistakes::kTimeTruncated},
                 qPrintable(r.mistakes.join(u", "_s) + u" | "_s + r.diagnosis));
        QVERIFY2(r.diagnosis.contains(u"second_per_grid 1.5 is cast to the integer 1"_s), qPrintable(r.diagnosis));
        QVERIFY2(r.diagnosis.contains(u"row 9: t 7, not 8"_s), qPrintable(r.diagnosis));
    }

    // The rotation's split against the one declared: chunked where interleaved was meant, the
    // reverse, and the section's counts given to the wrong axes. The ids are still read.
    void splitMistakesAreNamed_data()
    {
        QTest::addColumn<bool>("madeInterleaved");
        QTest::addColumn<QList<qint64>>("made");
        QTest::addColumn<bool>("declaredInterleaved");
        QTest::addColumn<QList<qint64>>("declared");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("words");
        // One id both ways: the direction is in the words.
        QTest::newRow("interleaved, chunked declared")
            << true << QList<qint64> {24, 20, 20} << false << QList<qint64> {24, 20, 20}
            << MropeMistakes::kInterleaveSwapped << u"split interleaved (apply_interleaved_mrope"_s;
        QTest::newRow("chunked, interleaved declared")
            << false << QList<qint64> {24, 20, 20} << true << QList<qint64> {24, 20, 20}
            << MropeMistakes::kInterleaveSwapped << u"split chunked (apply_multimodal_rotary_pos_emb"_s;
        QTest::newRow("[24, 24, 16], [16, 24, 24] declared")
            << false << QList<qint64> {24, 24, 16} << false << QList<qint64> {16, 24, 24} << MropeMistakes::kAxesSwapped
            << u"mrope_section 24,24,16, not the 16,24,24 declared"_s;
    }
    void splitMistakesAreNamed()
    {
        QFETCH(bool, madeInterleaved);
        QFETCH(QList<qint64>, made);
        QFETCH(bool, declaredInterleaved);
        QFETCH(QList<qint64>, declared);
        QFETCH(QString, mistake);
        QFETCH(QString, words);
        const std::vector<RowIds> ids = ropeIndex(4);
        const Applied a = applied(ids, axesOf(std::vector<std::int64_t>(made.begin(), made.end()), madeInterleaved));
        const MropeApplyCheck::Result r = checked(
            a, qwen2vl(true, declaredInterleaved, std::vector<std::int64_t>(declared.begin(), declared.end())));
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QVERIFY2(r.mistakes == QStringList {mistake}, qPrintable(r.mistakes.join(u", "_s) + u" | "_s + r.diagnosis));
        QVERIFY2(r.diagnosis.contains(words), qPrintable(r.diagnosis));
        QCOMPARE(r.interleaved, madeInterleaved);
        QCOMPARE(r.section, std::vector<std::int64_t>(made.begin(), made.end()));
        QVERIFY(r.ids == ids);
        QCOMPARE(r.deviatingRows, std::int64_t(0));
    }

    // Without --prompt: text rows from 0 are positions 0..L-1 (correct); from 4 an offset; a
    // prompt with images has its ids read, but cannot be judged (unknown, said so).
    void withoutAPrompt()
    {
        std::vector<RowIds> text;
        for (std::int64_t r = 0; r < 40; ++r)
            text.push_back({r, r, r});
        const std::vector<int> axis = axesOf({16, 24, 24}, false);
        MropeApplyCheck::Result r = checked(applied(text, axis), qwen2vl(false));
        QVERIFY2(r.verdict == CheckVerdict::Correct, qPrintable(r.diagnosis));
        for (RowIds &i : text)
            i = {i.t + 4, i.h + 4, i.w + 4};
        r = checked(applied(text, axis), qwen2vl(false));
        QCOMPARE(r.mistakes, QStringList {MropeMistakes::kIdsOffset});
        QCOMPARE(r.idOffset.value_or(0), std::int64_t(4));
        const std::vector<RowIds> ids = ropeIndex(0);
        r = checked(applied(ids, axis), qwen2vl(false));
        QCOMPARE(r.verdict, CheckVerdict::Unknown);
        QVERIFY(r.ids == ids);
        QVERIFY2(r.diagnosis.contains(u"without --prompt"_s), qPrintable(r.diagnosis));
    }

    // A section that does not split the pairs, X of another width: refused.
    void badInputIsRefused()
    {
        const Applied a = applied(ropeIndex(0), axesOf({16, 24, 24}, false));
        auto result = MropeApplyCheck::check(a.x, a.y, qwen2vl(true, false, {16, 24, 20}));
        QVERIFY(std::holds_alternative<QString>(result));
        QVERIFY2(std::get<QString>(result).startsWith(u"--mrope-section"_s), qPrintable(std::get<QString>(result)));
        MropeApplyCheck::Declared wide = qwen2vl(true);
        wide.params.rope.headDim = 256;
        result = MropeApplyCheck::check(a.x, a.y, wide);
        QVERIFY(std::holds_alternative<QString>(result));
    }
};

POSENC_TEST_APPLESS_MAIN(TestMropeApplyCheck)
} // namespace tst_mropeapplycheck
#include "tst_mropeapplycheck.moc"
