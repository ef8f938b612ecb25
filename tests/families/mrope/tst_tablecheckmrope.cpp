// posenc check identifies M-RoPE's cos and sin tables (MropeTableCheck): tables written here from
// the float64 references of tests/support/MropeReference.h (get_rope_index's ids,
// apply_multimodal_rotary_pos_emb's chunked and apply_interleaved_mrope's interleaved axes) with
// HF's inv_freq = 1 / theta^(2j / d) and emb = cat(freqs, freqs), never from the code under test.
// Undeclared, the split, rope_theta and the sampled rows' ids are read back and the verdict is
// unknown; against a declared prompt the table is correct, or each mistake a port makes is named
// with its rows: the split chunked where interleaved was meant and the reverse, h and w exchanged,
// Qwen2.5-VL's second_per_grid truncated before the product (transformers 4.x before PR #48669),
// the generated tokens without rope_deltas, and ids no such mistake gives, read back and compared
// (1-D positions over the vision rows, h and w held over a span). Each at a small size and the
// first four at about 100,000 tokens.
#include "core/CheckTables.h"
#include "support/MropeReference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"
#include "check/mrope/MropeMistakes.h"
#include "check/mrope/MropeTableCheck.h"
#include "core/ParamText.h"

#include <QtTest>

#include <cmath>

namespace tst_tablecheckmrope {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

using mroperef::Ids;
using mroperef::Segment;

// What a table is written from: the prompt, get_rope_index's rule, the split and theta, and the
// generated tokens after the prompt.
struct Spec
{
    QString prompt;
    QString vision = u"qwen2-vl"_s;
    QString era = u"v4"_s;
    Ids section = {16, 24, 24};
    bool interleaved = false;
    double theta = 1e6;
    std::int64_t pairs = 64;
    double tokensPerSecond = 2.0;
    std::int64_t generated = 0;
};

// A mistake the table is written with.
// OtherEra: the other transformers era's get_rope_index (4.x: the text after a vision span at its
// largest id + 1; 5.x: at its start + max(h, w)).
// OneDimensional: every token at (n, n, n), position_ids not taken from get_rope_index
// (linkedin/Liger-Kernel#276). HeldSpan: tokens 13 .. tokens - 19 keep h and w at 12 while t
// advances (an audio span's ids in mstar-project/mstar#196's get_rope_index_audio before its fix).
enum class Wrong { None, LayoutSwapped, AxesSwapped, TimeTruncated, DeltaLost, OtherEra, OneDimensional, HeldSpan };

// The prompt's segments, read here: text:N, image:TxHxW, video:TxHxW@SECONDS.
std::vector<Segment> segmentsOf(const QString &prompt, bool truncateSeconds)
{
    std::vector<Segment> out;
    for (const QString &part : prompt.split(u',')) {
        const QString kind = part.section(u':', 0, 0), arg = part.section(u':', 1);
        if (kind == u"text"_s) {
            out.push_back({0, arg.toLongLong(), 0, 0, 0, 0.0});
            continue;
        }
        const QStringList dims = arg.section(u'@', 0, 0).split(u'x');
        double seconds = arg.contains(u'@') ? arg.section(u'@', 1).toDouble() : 1.0;
        if (truncateSeconds)
            seconds = std::trunc(seconds);
        out.push_back(
            {kind == u"image"_s ? 1 : 2, 0, dims[0].toLongLong(), dims[1].toLongLong(), dims[2].toLongLong(), seconds});
    }
    return out;
}

// The table [tokens + generated, 2 * pairs]: token n's pair j at id_axis(j)(n) * theta^(-j / pairs),
// in cat(freqs, freqs)'s columns; `float32Angles` forms each angle as torch does, float(id) *
// float(inv_freq).
RowMatrixXf written(const Spec &s, bool cosine, Wrong wrong = Wrong::None, bool float32Angles = false)
{
    const QString era = wrong != Wrong::OtherEra ? s.era : s.era == u"v4"_s ? u"v5"_s : u"v4"_s;
    const mroperef::Table ids = mroperef::ropeIndex(segmentsOf(s.prompt, wrong == Wrong::TimeTruncated), s.vision, era,
                                                    2, s.tokensPerSecond, 6);
    const std::int64_t tokens = std::int64_t(ids.t.size());
    std::int64_t largest = -1;
    for (std::int64_t n = 0; n < tokens; ++n)
        largest = std::max({largest, ids.t[std::size_t(n)], ids.h[std::size_t(n)], ids.w[std::size_t(n)]});
    const std::int64_t delta = wrong == Wrong::DeltaLost ? 0 : largest + 1 - tokens; // rope_deltas
    const bool interleaved = wrong == Wrong::LayoutSwapped ? !s.interleaved : s.interleaved;
    const std::vector<int> axes
        = interleaved ? mroperef::interleavedAxes(s.section, s.pairs) : mroperef::chunkedAxes(s.section);
    std::vector<double> inv;
    for (std::int64_t j = 0; j < s.pairs; ++j)
        inv.push_back(float32Angles ? double(1.0f / std::pow(float(s.theta), float(2 * j) / float(2 * s.pairs)))
                                    : 1.0 / std::pow(s.theta, double(2 * j) / double(2 * s.pairs)));
    RowMatrixXf t(tokens + s.generated, 2 * s.pairs);
    for (std::int64_t n = 0; n < t.rows(); ++n) {
        std::int64_t id[3];
        if (n < tokens) {
            const auto k = std::size_t(n);
            const bool vision = ids.kind[k] != 0;
            id[0] = ids.t[k];
            id[1] = wrong == Wrong::AxesSwapped && vision ? ids.w[k] : ids.h[k];
            id[2] = wrong == Wrong::AxesSwapped && vision ? ids.h[k] : ids.w[k];
            if (wrong == Wrong::OneDimensional)
                id[0] = id[1] = id[2] = n;
            if (wrong == Wrong::HeldSpan && n >= 13 && n < tokens - 18)
                id[1] = id[2] = 12;
        } else {
            id[0] = id[1] = id[2] = n + delta;
        }
        for (std::int64_t j = 0; j < s.pairs; ++j) {
            const double p = double(id[axes[std::size_t(j)]]);
            const double a = float32Angles ? double(float(p) * float(inv[std::size_t(j)])) : p * inv[std::size_t(j)];
            const float v = float(cosine ? std::cos(a) : std::sin(a));
            t(n, j) = v;
            t(n, j + s.pairs) = v;
        }
    }
    return t;
}

Params paramsOf(const Spec &s)
{
    Params p;
    p.encoding = Encoding::Mrope;
    const QList<std::pair<QString, QString>> values = {
        {u"prompt"_s, s.prompt},
        {u"vision-positions"_s, s.vision},
        {u"mrope-era"_s, s.era},
        {u"mrope-section"_s, u"%1,%2,%3"_s.arg(s.section[0]).arg(s.section[1]).arg(s.section[2])},
        {u"mrope-interleaved"_s, s.interleaved ? u"true"_s : u"false"_s},
        {u"rope-theta"_s, QString::number(s.theta, 'g', 17)},
        {u"head-dim"_s, QString::number(2 * s.pairs)},
        {u"tokens-per-second"_s, QString::number(s.tokensPerSecond)},
    };
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s", qPrintable(error->sentence()));
    }
    if (!p.isValid())
        qFatal("%s", qPrintable(p.validate().constFirst().sentence()));
    return p;
}

// The check against the declared prompt, streamed and concluded as the command line runs it.
Checked expected(RowMatrixXf values, const Spec &s, bool cosine)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(std::move(values)), StoredType::Float32, u"test"_s, 0.0);
    return concluded(rows,
                     TableCheck::expect(rows, Encoding::Mrope, paramsOf(s), cosine ? u"mrope-cos"_s : u"mrope-sin"_s));
}

QString flagOf(const TableMatch &m)
{
    const MatchValue v = m.finding(u"mrope_interleaved"_s);
    return std::holds_alternative<bool>(v) ? (std::get<bool>(v) ? u"interleaved"_s : u"chunked"_s) : QString();
}

// About 100,000 tokens: an image of 40,000 tokens and a video of 16 grids of 2,500.
const QString kLarge = u"text:100,image:1x400x400,text:1000,video:16x100x100@0.5,text:18900"_s;

} // namespace

class TestTableCheckMrope : public QObject
{
    Q_OBJECT

private slots:
    void theSplitAndIdsAreRead_data();
    void theSplitAndIdsAreRead();
    void aTextTableIsRopes();
    void aFarImageOnTheSlowPairsIsNoRopeMistake();
    void aDeclaredPromptIsCorrect_data();
    void aDeclaredPromptIsCorrect();
    void mistakesAreNamed_data();
    void mistakesAreNamed();
    void aChangedCellIsFound();
    void aShapeThePromptDoesNotGiveIsRefused();
};

void TestTableCheckMrope::theSplitAndIdsAreRead_data()
{
    QTest::addColumn<Spec>("spec");
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<bool>("float32Angles");
    QTest::addColumn<QString>("published");
    QTest::addColumn<QString>("firstIds");
    Spec qwen2 {u"text:5,image:1x8x12,text:3,video:2x8x8,text:20"_s};
    QTest::newRow("Qwen2-VL, 16,24,24 chunked, cos")
        << qwen2 << true << false << u"Qwen2-VL"_s << u"row 0 (0, 0, 0), row 6 (5, 5, 6), "_s;
    Spec qwen3 {u"text:7,image:1x16x16,text:4,video:3x8x12,text:9"_s, u"qwen3-vl"_s, u"v5"_s, {24, 20, 20}, true, 5e6};
    QTest::newRow("Qwen3-VL, 24,20,20 interleaved, sin") << qwen3 << false << false << u"Qwen3-VL"_s << QString();
    Spec imageFirst {u"image:1x32x32,text:30"_s};
    QTest::newRow("an image first: theta from the models', cos")
        << imageFirst << true << false << u"Qwen2-VL"_s << u"row 0 (0, 0, 0), row 2 (0, 0, 2), "_s;
    Spec small {u"text:3,image:1x12x20,text:5"_s, u"qwen2-vl"_s, u"v4"_s, {8, 12, 12}, false, 10000.0, 32};
    QTest::newRow("8,12,12 chunked, theta 10000, 32 pairs, sin") << small << false << false << QString() << QString();
    Spec f32 {u"text:50,image:1x200x200,text:100"_s, u"qwen2.5-vl"_s};
    QTest::newRow("HF's float32 angles, 10,150 tokens, cos") << f32 << true << true << u"Qwen2-VL"_s << QString();
    Spec large = qwen3;
    large.prompt = kLarge;
    QTest::newRow("Qwen3-VL, about 100,000 tokens, cos") << large << true << false << u"Qwen3-VL"_s << QString();
}

void TestTableCheckMrope::theSplitAndIdsAreRead()
{
    QFETCH(Spec, spec);
    QFETCH(bool, cosine);
    QFETCH(bool, float32Angles);
    QFETCH(QString, published);
    QFETCH(QString, firstIds);
    const Checked c = check(written(spec, cosine, Wrong::None, float32Angles));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.family, std::optional(Encoding::Mrope));
    QCOMPARE(c.match.table, cosine ? u"mrope-cos"_s : u"mrope-sin"_s);
    // No prompt says what the ids should be: never correct.
    QCOMPARE(c.match.verdict, CheckVerdict::Unknown);
    QCOMPARE(word(c.match, u"mrope_section"_s),
             u"%1,%2,%3"_s.arg(spec.section[0]).arg(spec.section[1]).arg(spec.section[2]));
    QCOMPARE(flagOf(c.match), spec.interleaved ? u"interleaved"_s : u"chunked"_s);
    QCOMPARE(number(c.match, u"base"_s), spec.theta);
    QVERIFY2(c.verification.deviatingCells == 0, qPrintable(c.match.deviations));
    QVERIFY(c.verification.comparedRows > 16);
    QVERIFY2(c.match.notes.join(u' ').contains(u"ids (t, h, w) read from the table itself"_s),
             qPrintable(c.match.notes.join(u'\n')));
    if (!published.isEmpty())
        QVERIFY2(c.match.notes.join(u' ').contains(published), qPrintable(c.match.notes.join(u'\n')));
    // The ids where the rows change between text and vision: the text's (1, 1, 1) .. (4, 4, 4), whose
    // slow w pairs cannot tell 1 from 0, read as one id, as is the image's first token (5, 5, 5). Where
    // an image opens the prompt, its row 1 (0, 0, 1) is (0, 0, 0) in float32: cos(inv_40) rounds to 1.
    if (!firstIds.isEmpty())
        QVERIFY2(c.match.notes.join(u' ').contains(firstIds), qPrintable(c.match.notes.join(u'\n')));
    QCOMPARE(c.match.precision, std::optional(float32Angles ? TablePrecision::Float32Angles : TablePrecision::Exact));
}

// An image 120,000 tokens into a prompt whose h and w ids (one apart from t) turn only the three
// slowest pairs (61,1,2 at theta 5e6): within the float32 angles the check allows a RoPE table at
// such positions, t's id explains those rows, but an id is read from the pairs only within M-RoPE's
// own allowance, so the table is not taken for a RoPE table whose rows hold the wrong positions.
void TestTableCheckMrope::aFarImageOnTheSlowPairsIsNoRopeMistake()
{
    const Spec far {u"text:120000,image:1x4x4"_s, u"qwen2-vl"_s, u"v4"_s, {61, 1, 2}, false, 5e6};
    const Checked c = check(written(far, false));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QVERIFY2(c.match.verdict != CheckVerdict::Mistake, qPrintable(c.match.diagnosis));
}

void TestTableCheckMrope::aTextTableIsRopes()
{
    // Every token text: t = h = w, the 1-D RoPE table the RoPE family names.
    const Checked c = check(written(Spec {u"text:300"_s}, true));
    QCOMPARE(c.match.table, u"rope-cos"_s);
}

void TestTableCheckMrope::aDeclaredPromptIsCorrect_data()
{
    QTest::addColumn<Spec>("spec");
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<bool>("float32Angles");
    Spec qwen25 {u"text:5,image:1x8x12,text:3,video:3x8x8@0.5,text:4"_s, u"qwen2.5-vl"_s, u"v4"_s};
    qwen25.generated = 40;
    QTest::newRow("Qwen2.5-VL v4, 40 generated tokens, cos") << qwen25 << true << false;
    Spec qwen3 {u"text:7,image:1x16x16,text:4,video:3x8x12,text:9"_s, u"qwen3-vl"_s, u"v5"_s, {24, 20, 20}, true, 5e6};
    QTest::newRow("Qwen3-VL v5, sin") << qwen3 << false << false;
    Spec large {kLarge, u"qwen2.5-vl"_s, u"v5"_s};
    large.generated = 500;
    QTest::newRow("Qwen2.5-VL, about 100,000 tokens, float32 angles") << large << true << true;
}

void TestTableCheckMrope::aDeclaredPromptIsCorrect()
{
    QFETCH(Spec, spec);
    QFETCH(bool, cosine);
    QFETCH(bool, float32Angles);
    RowMatrixXf table = written(spec, cosine, Wrong::None, float32Angles);
    const std::int64_t rows = table.rows();
    const Checked c = expected(std::move(table), spec, cosine);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
    QVERIFY(c.match.correctAgainst.startsWith(u"the declared reference"_s));
    QCOMPARE(c.verification.deviatingCells, std::int64_t(0));
    QCOMPARE(c.verification.comparedRows, rows);
    QCOMPARE(c.match.precision, std::optional(float32Angles ? TablePrecision::Float32Angles : TablePrecision::Exact));
}

void TestTableCheckMrope::mistakesAreNamed_data()
{
    QTest::addColumn<Spec>("spec");
    QTest::addColumn<Wrong>("wrong");
    QTest::addColumn<QString>("mistake");
    QTest::addColumn<QString>("where");
    using MropeMistakes::kAxesSwapped;
    using MropeMistakes::kInterleaveSwapped;
    using MropeMistakes::kRopeDeltasLost;
    using MropeMistakes::kTimeTruncated;
    const Spec qwen2 {u"text:5,image:1x8x12,text:3,video:2x8x8,text:20"_s};
    const Spec qwen3 {
        u"text:7,image:1x16x16,text:4,video:3x8x12,text:9"_s, u"qwen3-vl"_s, u"v5"_s, {24, 20, 20}, true, 5e6};
    Spec qwen25 {u"text:5,image:1x8x12,text:3,video:4x8x8@0.5,text:4"_s, u"qwen2.5-vl"_s, u"v4"_s};
    Spec qwen25v5 {u"text:5,video:4x8x8@1.5,text:4"_s, u"qwen2.5-vl"_s, u"v5"_s};
    // Video t ids 0, 4, 8, 12 (2 s a grid, 2 tokens a second): 4.x puts the text after at 18, 5.x at 9.
    const Spec eraV4 {u"text:5,video:4x8x8@2,text:4"_s, u"qwen2.5-vl"_s, u"v4"_s};
    const Spec eraV5 {u"text:5,video:4x8x8@2,text:4"_s, u"qwen2.5-vl"_s, u"v5"_s};
    Spec decoding = qwen2;
    decoding.generated = 30;
    // One generated token: its row named alone ("row 84", never "rows 84-84").
    Spec oneStep = qwen2;
    oneStep.generated = 1;
    QTest::newRow("interleaved where chunked was meant")
        << qwen2 << Wrong::LayoutSwapped << kInterleaveSwapped << u"rows 5-28, 32-63"_s;
    QTest::newRow("chunked where interleaved was meant")
        << qwen3 << Wrong::LayoutSwapped << kInterleaveSwapped << u"rows 7-70"_s;
    QTest::newRow("h and w exchanged") << qwen2 << Wrong::AxesSwapped << kAxesSwapped << u"rows 5-28"_s;
    QTest::newRow("second_per_grid 0.5 truncated to 0, v4")
        << qwen25 << Wrong::TimeTruncated << kTimeTruncated << u"rows 32-95"_s;
    QTest::newRow("second_per_grid 1.5 truncated to 1, v5")
        << qwen25v5 << Wrong::TimeTruncated << kTimeTruncated << u"rows 5-68"_s;
    QTest::newRow("rope_deltas lost after the prompt")
        << decoding << Wrong::DeltaLost << kRopeDeltasLost << u"rows 84-113"_s;
    QTest::newRow("rope_deltas lost on one generated token")
        << oneStep << Wrong::DeltaLost << kRopeDeltasLost << u"row 84 after the prompt is at its cache position"_s;
    QTest::newRow("5.x's ids where 4.x was declared")
        << eraV4 << Wrong::OtherEra << MropeMistakes::kOtherEra << u"5.x's get_rope_index (the text after"_s;
    QTest::newRow("4.x's ids where 5.x was declared")
        << eraV5 << Wrong::OtherEra << MropeMistakes::kOtherEra << u"rows 69-72 move"_s;
    QTest::newRow("1-D positions over the image and video")
        << qwen2 << Wrong::OneDimensional << MropeMistakes::kIdsDiffer << u"holds ids (r, r, r): 1-D positions"_s;
    const Spec omni {u"text:280"_s, u"qwen3-vl"_s, u"v5"_s, {24, 20, 20}, true, 1e6};
    QTest::newRow("h and w held over a span")
        << omni << Wrong::HeldSpan << MropeMistakes::kIdsDiffer << u"h and w held at 12, t as the prompt's"_s;
    Spec large {kLarge, u"qwen2.5-vl"_s, u"v4"_s};
    large.generated = 1000;
    QTest::newRow("100,000 tokens: interleaved where chunked")
        << large << Wrong::LayoutSwapped << kInterleaveSwapped << u"rows 100-40099"_s;
    QTest::newRow("100,000 tokens: h and w") << large << Wrong::AxesSwapped << kAxesSwapped << u"41100-81099"_s;
    QTest::newRow("100,000 tokens: time truncated")
        << large << Wrong::TimeTruncated << kTimeTruncated << u"rows 41100-81099"_s;
    QTest::newRow("100,000 tokens: rope_deltas lost")
        << large << Wrong::DeltaLost << kRopeDeltasLost << u"rows 100000-100999"_s;
}

void TestTableCheckMrope::mistakesAreNamed()
{
    QFETCH(Spec, spec);
    QFETCH(Wrong, wrong);
    QFETCH(QString, mistake);
    QFETCH(QString, where);
    const Checked c = expected(written(spec, true, wrong), spec, true);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
    QCOMPARE(c.match.mistakes, QStringList {mistake});
    QVERIFY2(c.match.diagnosis.contains(where), qPrintable(c.match.diagnosis));
    QVERIFY(c.match.correctAgainst.isEmpty());
    // Streamed against the declared (correct) table: the rows of the mistake deviate.
    QVERIFY(c.verification.deviatingCells > 0);
    // The same table written correctly is correct against the same declaration, its generated
    // tokens counted in agreement ("1 generated token", "30 generated tokens").
    const Checked right = expected(written(spec, true), spec, true);
    QCOMPARE(right.match.verdict, CheckVerdict::Correct);
    if (spec.generated > 0)
        QVERIFY2(right.match.diagnosis.contains(
                     spec.generated == 1 ? u", 1 generated token at its cache_position"_s
                                         : u", %1 generated tokens at their cache_position"_s.arg(spec.generated)),
                 qPrintable(right.match.diagnosis));
}

void TestTableCheckMrope::aChangedCellIsFound()
{
    const Spec s {u"text:5,image:1x8x12,text:3,video:2x8x8,text:20"_s};
    RowMatrixXf t = written(s, false);
    t(40, 70) += 0.25f;
    const Checked c = expected(t, s, false);
    QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
    QVERIFY(c.match.mistakes.isEmpty());
    QCOMPARE(c.verification.worstRow, std::int64_t(40));
    QCOMPARE(c.verification.worstColumn, std::int64_t(70));
}

void TestTableCheckMrope::aShapeThePromptDoesNotGiveIsRefused()
{
    const Spec s {u"text:5,image:1x8x12,text:3"_s};
    RowMatrixXf t = written(s, true);
    QVERIFY(expected(t.topRows(20), s, true).error.contains(u"the prompt gives 32 tokens; this table has 20 rows"_s));
    QVERIFY(expected(t.leftCols(64), s, true).error.contains(u"128 columns"_s));
}

POSENC_TEST_GUILESS_MAIN(TestTableCheckMrope)
} // namespace tst_tablecheckmrope
#include "tst_tablecheckmrope.moc"
