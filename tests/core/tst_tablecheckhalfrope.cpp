// posenc check of RoPE tables as a faithful computation in a half format leaves them (issue 62):
// HF's cos and sin cache (modeling_rope_utils.py: the default and proportional frequencies; the
// model's forward: freqs = inv_freq @ position_ids, cos = freqs.cos()) formed from float64 or
// float32 angles, then rounded to bfloat16 or float16 to nearest, toward zero, down or up. None of
// them is a mistake (a faithful computation is correct, a variant, or unknown, never mistake); with
// one cell a unit of the format off, none is correct, and a published form's is a mistake that names
// that cell. Declared (--expect, TableCheck::expect), a faithful rounding is correct and the cell a
// unit off a mistake that names it: RoPE's cache, and M-RoPE's (Qwen2-VL's apply_multimodal_rotary_pos_emb
// of a prompt's ids, get_rope_index's, written here), whose undeclared reading is unknown, never a
// mistake. Each table is written here from its float64 formula.
#include "CheckTables.h"
#include "support/DirectedRounding.h"
#include "support/LongVariant.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QtTest>

#include <array>
#include <cmath>
#include <functional>
#include <memory>

namespace tst_tablecheckhalfrope {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

using directedrounding::Format;
using directedrounding::kBFloat16;
using directedrounding::kFloat16;
using directedrounding::name;
using directedrounding::oneUnitOff;

struct Rope
{
    const char *name;
    std::int64_t headDim;
    double theta;
    double share; // proportional's partial_rotary_factor: the share of the pairs that turn; 1: default
    double factor; // proportional's divisor
    std::int64_t rows;
    bool sine; // its sin table too
    bool float64Angles; // its tables of float64 angles too
    bool bfloat16; // its tables in bfloat16 too
};

// HF's _compute_proportional_rope_parameters: int(F * head_dim // 2) pairs at
// theta^(-2i/head_dim) / factor, the rest at 0; _compute_default_rope_parameters at F = 1, factor 1.
double inverseFrequency(const Rope &r, std::int64_t i)
{
    const auto live = static_cast<std::int64_t>(std::floor(r.share * double(r.headDim) / 2.0));
    return i < live ? std::pow(r.theta, -2.0 * double(i) / double(r.headDim)) / r.factor : 0.0;
}

// The cos (or sin) cache, half layout (each pair's value in column i and i + head_dim / 2), its
// angles p w in float64 or as float32 code forms them: float(p) * float(w), rounded to float32.
RowMatrixXf cache(const Rope &r, bool cosine, bool float32Angles)
{
    const std::int64_t half = r.headDim / 2;
    return table(r.rows, r.headDim, [&](std::int64_t p, std::int64_t j) {
        const double w = inverseFrequency(r, j % half);
        const double angle = float32Angles ? double(float(p) * float(w)) : double(p) * w;
        return cosine ? std::cos(angle) : std::sin(angle);
    });
}

// Gemma 4's full-attention layers (head 512, a quarter of the pairs turning, theta 10^6), half the
// pairs turning at a factor, and Llama 3's default frequencies.
const Rope kRopes[] = {
    {"proportional head 512 F 0.25 theta 1e6", 512, 1e6, 0.25, 1.0, 1024, false, false, false},
    {"proportional head 256 F 0.5 factor 8", 256, 1e4, 0.5, 8.0, 256, true, true, true},
    {"default head 128 theta 5e5", 128, 5e5, 1.0, 1.0, 512, true, true, true},
};

// Qwen2-VL's M-RoPE (modeling_qwen2_vl.py): rope_theta 1e6, head_dim 128, mrope_section 16,24,24
// chunked; the prompt text:40, image:1x12x16 (a 1 x 6 x 8 grid after the 2 x 2 merge), text:20.
const QString kPrompt = u"text:40,image:1x12x16,text:20"_s;
constexpr std::int64_t kMropeRows = 40 + 6 * 8 + 20;

// get_rope_index's ids (t, h, w) of token n of kPrompt: text from 0 on; the image's at 40 plus its
// grid's (0, row, column); the text after it from the largest id + 1, 48.
std::array<std::int64_t, 3> mropeIds(std::int64_t n)
{
    if (n < 40)
        return {n, n, n};
    if (n < 88)
        return {40, 40 + (n - 40) / 8, 40 + (n - 40) % 8};
    return {n - 40, n - 40, n - 40};
}

// The merged cos (or sin) table: pair j (column j and j + 64) of axis t below 16, h below 40, w after,
// turns by that axis's id times 1e6^(-j / 64); its angle in float64 or in float32 as
// inv_freq @ position_ids forms it.
RowMatrixXf mropeTable(bool cosine, bool float32Angles)
{
    return table(kMropeRows, 128, [&](std::int64_t n, std::int64_t c) {
        const std::int64_t j = c % 64;
        const double w = std::pow(1e6, -double(j) / 64.0);
        const std::int64_t id = mropeIds(n)[j < 16 ? 0 : j < 40 ? 1 : 2];
        const double angle = float32Angles ? double(float(id) * float(w)) : double(id) * w;
        return cosine ? std::cos(angle) : std::sin(angle);
    });
}

// Pixtral's 2-D RoPE (PixtralRotaryEmbedding, modeling_pixtral.py: head_dim 64, theta 10000) over a
// 32 x 32 grid, row-major: freqs_k = theta^(-2k / 64); the patch's row turns the even k, its column
// the odd, each in columns i and i + 32 (cat(inv_freq, inv_freq)); angles in float64 or as torch's
// float32 outer product forms them.
RowMatrixXf pixtralTable(bool cosine, bool float32Angles)
{
    return table(32 * 32, 64, [&](std::int64_t n, std::int64_t c) {
        const std::int64_t i = c % 32, k = i < 16 ? 2 * i : 2 * (i - 16) + 1, id = i < 16 ? n / 32 : n % 32;
        const double w = std::pow(1e4, -2.0 * double(k) / 64.0);
        const double angle = float32Angles ? double(float(id) * float(w)) : double(id) * w;
        return cosine ? std::cos(angle) : std::sin(angle);
    });
}

// `t` checked against the declared family's table at `params` (--expect), as the command line does.
Checked declaredCheck(const RowMatrixXf &t, Encoding family, const Params &params, const QString &word,
                      const QStringList &keys)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    TableCheck::Declared declared;
    declared.params = params;
    declared.keys = keys;
    declared.family = family;
    TableCheck::StreamOptions options;
    options.chunkBytes = std::uint64_t(1) << 18;
    return concluded(rows, TableCheck::expect(rows, family, params, word, nullptr, declared), options);
}

// Of a faithful rounding declared: correct. The cell at row 20, column 5 one unit off: a mistake that
// names it.
void verifyDeclared(RowMatrixXf t, const RowMatrixXf &exact, const Format &f, Rounding rounding,
                    const std::function<Checked(const RowMatrixXf &)> &declaredOf)
{
    const Checked c = declaredOf(t);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QVERIFY2(c.match.verdict == CheckVerdict::Correct, qPrintable(c.match.diagnosis + u" | "_s + c.match.deviations));
    t(20, 5) = oneUnitOff(t(20, 5), double(exact(20, 5)), f, rounding);
    const Checked off = declaredOf(t);
    const QString offReport = off.match.diagnosis + u" | "_s + off.match.deviations;
    QVERIFY2(off.match.verdict == CheckVerdict::Mistake, qPrintable(offReport));
    QVERIFY2(off.match.deviations.contains(u"rows 20 "_s) || off.match.worstRow == 20, qPrintable(offReport));
}

// The undeclared check of a table a half format's rounding left: no mistake and not learned,
// read as `family` (with `familyOpen` the reason it is not yet, an expected failure).
void verifyNoMistake(const RowMatrixXf &t, Encoding family, Checked &c, const char *familyOpen = nullptr)
{
    c = check(t);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    const QString report = c.match.diagnosis + u" | "_s + c.match.deviations;
    QVERIFY2(c.match.verdict != CheckVerdict::Mistake && c.match.verdict != CheckVerdict::Learned, qPrintable(report));
    if (familyOpen)
        QEXPECT_FAIL("", familyOpen, Abort);
    QVERIFY2(c.match.family == family, qPrintable(report));
}

// The same table with cell (row, column) a unit off its rounding: never correct or a variant, and
// where the table read correct a mistake that names the row.
void verifyUnitOff(RowMatrixXf t, const RowMatrixXf &exact, const Format &f, Rounding rounding, int row, int column,
                   bool tableCorrect)
{
    t(row, column) = oneUnitOff(t(row, column), double(exact(row, column)), f, rounding);
    const Checked off = check(t);
    const QString offReport = off.match.diagnosis + u" | "_s + off.match.deviations;
    QVERIFY2(off.match.verdict != CheckVerdict::Correct && off.match.verdict != CheckVerdict::Variant,
             qPrintable(offReport));
    if (!tableCorrect)
        return;
    QVERIFY2(off.match.verdict == CheckVerdict::Mistake, qPrintable(offReport));
    QVERIFY2(off.match.deviations.contains(u"rows %1 "_s.arg(row)) || off.match.worstRow == row, qPrintable(offReport));
}

void addRoundings(const char *table, int variant, bool cosine, bool f32)
{
    for (const Format *f : {&kBFloat16, &kFloat16})
        for (const Rounding r : {Rounding::Nearest, Rounding::TowardZero, Rounding::Downward, Rounding::Upward})
            QTest::addRow("%s, %s, %s angles, %s %s", table, cosine ? "cos" : "sin", f32 ? "float32" : "float64",
                          f->name, name(r))
                << variant << cosine << f32 << int(f == &kFloat16) << r;
}

} // namespace

namespace {

// The columns of every row set of this test: the table, cos or sin, its angles, its format and
// its rounding.
void addRoundingColumns()
{
    QTest::addColumn<int>("rope");
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<bool>("float32Angles");
    QTest::addColumn<int>("format");
    QTest::addColumn<Rounding>("rounding");
}

} // namespace

class TestTableCheckHalfRope : public QObject
{
    Q_OBJECT

private slots:
    void roundedCacheIsNoMistake_data()
    {
        addRoundingColumns();
        for (int k = 0; k < int(std::size(kRopes)); ++k)
            for (const bool cosine : {true, false})
                for (const bool f32 : {false, true})
                    if ((cosine || kRopes[k].sine) && (f32 || kRopes[k].float64Angles))
                        for (const Format *f : {&kBFloat16, &kFloat16})
                            if (f == &kFloat16 || kRopes[k].bfloat16)
                                for (const Rounding r :
                                     {Rounding::Nearest, Rounding::TowardZero, Rounding::Downward, Rounding::Upward})
                                    QTest::addRow("%s, %s, %s angles, %s %s", kRopes[k].name, cosine ? "cos" : "sin",
                                                  f32 ? "float32" : "float64", f->name, name(r))
                                        << k << cosine << f32 << int(f == &kFloat16) << r;
    }
    // No mistake; RoPE's table. Then the cell at row 20, column 5 (a pair that turns) one unit off:
    // never correct, and where the table read correct a mistake that names that cell.
    void roundedCacheIsNoMistake()
    {
        QFETCH(int, rope);
        QFETCH(bool, cosine);
        QFETCH(bool, float32Angles);
        QFETCH(int, format);
        QFETCH(Rounding, rounding);
        // CI's run takes Gemma 4's cache (the false mistake's) under every rounding and the other
        // caches' cos in float16 from float32 angles toward zero; the long variant the rest (some
        // 5 minutes of processor time, two checks of a search each row).
        POSENC_ROWS_IN_CI_WHERE(rope == 0
                                || (cosine && float32Angles && format == 1 && rounding == Rounding::TowardZero));
        const Format &f = format ? kFloat16 : kBFloat16;
        const Rope &r = kRopes[rope];
        const RowMatrixXf exact = cache(r, cosine, float32Angles);
        const RowMatrixXf t = directedrounding::roundedTable(exact, f.bits, f.least, rounding);
        Checked c;
        verifyNoMistake(t, Encoding::Rope, c);
        if (QTest::currentTestFailed())
            return;
        // A table at parameters no published form uses is read at parameters fitted to its half-precision
        // cells, whose own error reaches a unit of the format: unknown, never correct. A published form's
        // is a mistake that names the cell.
        verifyUnitOff(t, exact, f, rounding, 20, 5, c.match.verdict == CheckVerdict::Correct);
    }

    void declaredCacheIsCorrect_data()
    {
        addRoundingColumns();
        for (const bool cosine : {true, false})
            for (const bool f32 : {false, true})
                addRoundings(kRopes[2].name, 2, cosine, f32);
    }
    // RoPE's cache declared (--expect rope at its parameters): correct however it was rounded; the cell
    // a unit off a mistake that names it.
    void declaredCacheIsCorrect()
    {
        QFETCH(int, rope);
        QFETCH(bool, cosine);
        QFETCH(bool, float32Angles);
        QFETCH(int, format);
        QFETCH(Rounding, rounding);
        POSENC_ROWS_IN_CI_WHERE(cosine && float32Angles && rounding == Rounding::TowardZero);
        const Format &f = format ? kFloat16 : kBFloat16;
        const Rope &r = kRopes[rope];
        Params p;
        p.encoding = Encoding::Rope;
        p.rope.headDim = r.headDim;
        p.rope.theta = r.theta;
        p.maxLen = r.rows;
        p.dModel = r.headDim;
        const RowMatrixXf exact = cache(r, cosine, float32Angles);
        verifyDeclared(directedrounding::roundedTable(exact, f.bits, f.least, rounding), exact, f, rounding,
                       [&](const RowMatrixXf &t) {
                           return declaredCheck(t, Encoding::Rope, p, cosine ? u"rope-cos"_s : u"rope-sin"_s, {});
                       });
    }

    void rope2dTableIsNoMistake_data()
    {
        addRoundingColumns();
        for (const bool cosine : {true, false})
            for (const bool f32 : {false, true})
                addRoundings("2-D RoPE Pixtral", 0, cosine, f32);
    }
    // Pixtral's 2-D RoPE table: read as Pixtral's (its float32 table is correct), never a mistake; the
    // cell a unit off never correct, and where the table read correct a mistake that names it.
    void rope2dTableIsNoMistake()
    {
        QFETCH(bool, cosine);
        QFETCH(bool, float32Angles);
        QFETCH(int, format);
        QFETCH(Rounding, rounding);
        POSENC_ROWS_IN_CI_WHERE(cosine && float32Angles && format == 0
                                && (rounding == Rounding::Nearest || rounding == Rounding::TowardZero));
        const Format &f = format ? kFloat16 : kBFloat16;
        const RowMatrixXf exact = pixtralTable(cosine, float32Angles);
        const RowMatrixXf t = directedrounding::roundedTable(exact, f.bits, f.least, rounding);
        Checked c;
        // Open: the cos table rounded up to bfloat16 (every still pair's cosine 1, the slow ones' too)
        // reads as no 2-D RoPE's; unknown, no mistake.
        const bool open = cosine && format == 0 && rounding == Rounding::Upward;
        verifyNoMistake(t, Encoding::Rope2d, c,
                        open ? "a cos table rounded up to bfloat16 reads as no 2-D RoPE's (unknown)" : nullptr);
        if (QTest::currentTestFailed() || c.match.family != Encoding::Rope2d)
            return;
        // Row 20 is patch (0, 20): column 21 its column pair of k = 11, at 0.84 rad.
        verifyUnitOff(t, exact, f, rounding, 20, 21, c.match.verdict == CheckVerdict::Correct);
    }

    void mropeTableIsNoMistake_data()
    {
        addRoundingColumns();
        for (const bool cosine : {true, false})
            for (const bool f32 : {false, true})
                addRoundings("M-RoPE Qwen2-VL", 0, cosine, f32);
    }
    // M-RoPE's table, undeclared: its ids read from its rows, unknown as its float32 table is, never a
    // mistake. Declared with its prompt: correct; the cell a unit off a mistake that names it.
    void mropeTableIsNoMistake()
    {
        QFETCH(bool, cosine);
        QFETCH(bool, float32Angles);
        QFETCH(int, format);
        QFETCH(Rounding, rounding);
        POSENC_ROWS_IN_CI_WHERE(float32Angles && (rounding == Rounding::TowardZero || rounding == Rounding::Nearest));
        const Format &f = format ? kFloat16 : kBFloat16;
        const RowMatrixXf exact = mropeTable(cosine, float32Angles);
        const RowMatrixXf t = directedrounding::roundedTable(exact, f.bits, f.least, rounding);
        Checked c;
        verifyNoMistake(t, Encoding::Mrope, c);
        if (QTest::currentTestFailed())
            return;
        Params p;
        p.encoding = Encoding::Mrope;
        p.rope.headDim = 128;
        p.rope.theta = 1e6;
        p.dModel = 128;
        p.maxLen = kMropeRows;
        p.mrope.section = {16, 24, 24};
        p.mrope.prompt = kPrompt;
        verifyDeclared(t, exact, f, rounding, [&](const RowMatrixXf &table) {
            return declaredCheck(table, Encoding::Mrope, p, cosine ? u"mrope-cos"_s : u"mrope-sin"_s, {u"prompt"_s});
        });
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckHalfRope)
} // namespace tst_tablecheckhalfrope
#include "tst_tablecheckhalfrope.moc"
