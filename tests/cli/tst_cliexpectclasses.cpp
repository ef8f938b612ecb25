// posenc check names the class of a deviation from a declared reference that held-out set 6 found
// unnamed or refused (issue 56; brief h27b), each table written here in float64 from the code it
// follows (or recorded with torch by tests/data/make_grid_resize_fixture.py), stored as float32:
// - ALiBi biased one key off: vLLM's paged attention decode biased key j of the query at n by
//   slope · (j − n) where its fix (vllm-project/vllm#945) gives slope · (j − n + 1): every head the
//   reference minus its slope, the key offset said, softmax-invariant: correct up to the constant;
//   other per-head constants each head's constant said, correct up to them too.
// - A learned grid resized by torch (1.13, whose CPU linspace is not today's scalar form) as
//   transformers' Qwen3VLVisionModel.fast_pos_embed_interpolate does it: `correct`; with
//   F.interpolate(align_corners=False), as llama.cpp's qwen3vl.cpp did before ggml-org/llama.cpp#25781:
//   `resized-without-align-corners`. Neither refused.
// - Qwen3-VL's interleaved M-RoPE whose h and w ids reach only the first half of cat(freqs, freqs)
//   (xLLM's apply_mrope before xLLM-AI/xllm#746): `mrope-columns-axis`, the columns named, and only
//   the cells that differ reported as deviating (float32 angles are no deviation).
// - [B, L] ids of an M-RoPE batch whose prompt holds an image: the refusal says what a text pack needs.
// - A 2-D grid read transposed: the grid-axes-swapped sentence in plain words.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace tst_cliexpectclasses {
using namespace Qt::StringLiterals;

namespace {

// An int64 .npy of shape [rows, cols].
QByteArray npyIds(std::int64_t rows, std::int64_t cols, const std::vector<std::int64_t> &values)
{
    QByteArray dict = "{'descr': '<i8', 'fortran_order': False, 'shape': (" + QByteArray::number(rows) + ", "
        + QByteArray::number(cols) + "), }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    for (const std::int64_t v : values)
        bytes.append(reinterpret_cast<const char *>(&v), sizeof v);
    return bytes;
}

using CliCheck::Checked;

// get_slopes(H) of the paper's code (ofirpress/attention_with_linear_biases), H a power of two:
// head k (1..H) has 2^(-8k/H).
double slope(std::int64_t heads, std::int64_t head)
{
    return std::pow(2.0, -8.0 * double(head) / double(heads));
}

// [1, H, L, L] causal ALiBi biases: head h's query i, key j ≤ i holds m (j − i) + constant(h), the
// keys after the query −inf.
std::vector<double> alibiBias(std::int64_t heads, std::int64_t length,
                              const std::function<double(std::int64_t)> &constant)
{
    std::vector<double> v;
    for (std::int64_t h = 1; h <= heads; ++h)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j)
                v.push_back(j > i ? -std::numeric_limits<double>::infinity()
                                  : slope(heads, h) * double(j - i) + constant(h));
    return v;
}

// Qwen3-VL's text rotary embedding (huggingface/transformers models/qwen3_vl/modeling_qwen3_vl.py,
// Qwen3VLTextRotaryEmbedding: inv_freq in float32, freqs = inv_freq @ position_ids in float32,
// apply_interleaved_mrope over mrope_section [24, 20, 20], emb = cat(freqs, freqs), cos) of the
// prompt text:6, image 1 x 16 x 24 (8 x 12 merged tokens), text:10, as get_rope_index gives its ids:
// text k at (k, k, k); the image's token (y, x) at (6, 6 + y, 6 + x); the text after it from 18 on.
// `secondHalfAtT`: the second half of emb left at the t ids, as xLLM's apply_mrope indexed it.
std::vector<double> qwen3VlCos(bool secondHalfAtT)
{
    constexpr std::int64_t pairs = 64;
    std::vector<std::array<std::int64_t, 3>> ids;
    for (std::int64_t k = 0; k < 6; ++k)
        ids.push_back({k, k, k});
    for (std::int64_t y = 0; y < 8; ++y)
        for (std::int64_t x = 0; x < 12; ++x)
            ids.push_back({6, 6 + y, 6 + x});
    for (std::int64_t k = 0; k < 10; ++k)
        ids.push_back({18 + k, 18 + k, 18 + k});
    std::vector<double> v;
    for (const auto &id : ids) {
        for (std::int64_t c = 0; c < 2 * pairs; ++c) {
            const std::int64_t j = c % pairs;
            int axis = 0;
            if (j % 3 == 1 && j < 3 * 20)
                axis = 1;
            else if (j % 3 == 2 && j < 3 * 20)
                axis = 2;
            if (secondHalfAtT && c >= pairs)
                axis = 0;
            const float inv = float(1.0 / std::pow(5000000.0, double(2 * j) / double(2 * pairs)));
            const float angle = float(id[std::size_t(axis)]) * inv;
            v.push_back(std::cos(double(angle)));
        }
    }
    return v;
}

// float32 rounded to bfloat16, to nearest even, as torch's .to(torch.bfloat16).
double bf16(double v)
{
    const float f = float(v);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
    float r = 0.0f;
    std::memcpy(&r, &bits, sizeof r);
    return double(r);
}

// The paper's interleaved sinusoid at `base`: sin, cos of p base^(-2i/d).
double sinusoid(std::int64_t p, std::int64_t j, std::int64_t d, double base)
{
    const double angle = double(p) * std::pow(base, -2.0 * double(j / 2) / double(d));
    return j % 2 == 1 ? std::cos(angle) : std::sin(angle);
}

// HF's RoPE cos table (half layout) at theta 10000; `bf16Angles`: inv_freq, the position and their
// product rounded to bfloat16 (a rotary embedding under a bf16 autocast, transformers#29285).
double ropeCos(std::int64_t p, std::int64_t j, std::int64_t d, bool bf16Angles)
{
    const double inv = std::pow(10000.0, -2.0 * double(j % (d / 2)) / double(d));
    return std::cos(bf16Angles ? bf16(bf16(double(p)) * bf16(inv)) : double(p) * inv);
}

const QStringList kQwen3Vl {u"--expect"_s,
                            u"mrope"_s,
                            u"--mrope-interleaved"_s,
                            u"--mrope-section"_s,
                            u"24,20,20"_s,
                            u"--rope-theta"_s,
                            u"5000000"_s,
                            u"--head-dim"_s,
                            u"128"_s,
                            u"--vision-positions"_s,
                            u"qwen3-vl"_s,
                            u"--prompt"_s,
                            u"text:6,image:1x16x24,text:10"_s};

} // namespace

class TestCliExpectClasses : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return CliCheck::write(m_dir, name, bytes); }

    static Checked checkFile(const QString &file, const QStringList &flags) { return CliCheck::checkFile(file, flags); }

    Checked check(const QByteArray &bytes, const QStringList &flags) { return CliCheck::check(m_dir, bytes, flags); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // vllm-project/vllm#945: every head's bias m (j − i − 1), one key off: the distance and the
    // constant said, and the softmax's cancelling; correct up to that constant, as a constant per
    // query row is (issue 56: the softmax cancels both); the fixed bias correct.
    void alibiOneKeyOffNamed()
    {
        constexpr std::int64_t heads = 8, length = 24;
        const QStringList flags {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--alibi"_s, u"causal"_s};
        const std::vector<std::int64_t> shape {1, heads, length, length};
        const Checked fixed = check(npy(shape, alibiBias(heads, length, [](std::int64_t) { return 0.0; })), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
        const Checked buggy
            = check(npy(shape, alibiBias(heads, length, [&](std::int64_t h) { return -slope(heads, h); })), flags);
        QVERIFY2(buggy.verdict() == u"correct"_s && buggy.mistakes().isEmpty(), qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"minus 1 times its slope"_s), qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"head 1 -0.5"_s), qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"softmax over the keys cancels"_s), qPrintable(buggy.shown));
        QVERIFY2(!buggy.diagnosis().startsWith(u"slice"_s), qPrintable(buggy.shown));
    }

    // Constants per head that no key offset gives (0.25 · h): each head's constant named, correct up
    // to them (the softmax cancels them).
    void alibiHeadConstantsNamed()
    {
        constexpr std::int64_t heads = 8, length = 24;
        const QStringList flags {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--alibi"_s, u"causal"_s};
        const Checked c = check(
            npy({1, heads, length, length}, alibiBias(heads, length, [](std::int64_t h) { return 0.25 * double(h); })),
            flags);
        QVERIFY2(c.verdict() == u"correct"_s && c.mistakes().isEmpty(), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"head 1 0.25, head 2 0.5"_s), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"softmax"_s), qPrintable(c.shown));
    }

    // A symmetric (bidirectional) bias −m |i − j| minus each head's slope: a constant per head that no
    // key offset gives (one would move the keys before the query up and those after it down): each
    // head's constant said, no key offset; and a causal bias one slope above the reference's is the
    // distance taken the other way, said so, vLLM's decode (one slope below) not cited. Both correct
    // up to those constants, which the softmax cancels.
    void alibiConstantsSaidByTheBiasTheyAreOn()
    {
        constexpr std::int64_t heads = 8, length = 24;
        std::vector<double> symmetric;
        for (std::int64_t h = 1; h <= heads; ++h)
            for (std::int64_t i = 0; i < length; ++i)
                for (std::int64_t j = 0; j < length; ++j)
                    symmetric.push_back(-slope(heads, h) * double(std::llabs(i - j)) - slope(heads, h));
        const Checked sym = check(npy({1, heads, length, length}, symmetric),
                                  {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(sym.verdict() == u"correct"_s && sym.mistakes().isEmpty(), qPrintable(sym.shown));
        QVERIFY2(sym.diagnosis().contains(u"before and after the query"_s), qPrintable(sym.shown));
        QVERIFY2(!sym.diagnosis().contains(u"vllm"_s, Qt::CaseInsensitive), qPrintable(sym.shown));
        const Checked above = check(
            npy({1, heads, length, length}, alibiBias(heads, length, [&](std::int64_t h) { return slope(heads, h); })),
            {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--alibi"_s, u"causal"_s});
        QVERIFY2(above.verdict() == u"correct"_s && above.mistakes().isEmpty(), qPrintable(above.shown));
        QVERIFY2(above.diagnosis().contains(u"plus 1 times its slope"_s), qPrintable(above.shown));
        QVERIFY2(above.diagnosis().contains(u"m (j − i + 1)"_s), qPrintable(above.shown));
        QVERIFY2(!above.diagnosis().contains(u"vllm"_s, Qt::CaseInsensitive), qPrintable(above.shown));
    }

    // --apply of RoPE applied twice at an attention factor of 1: Y = R(2 p w) X, which the declared
    // rope_theta explains at twice each row's position (and a linear factor 0.5 at the rows' own):
    // the rows' positions read with the declared reference, 2 r, and never `correct`; Y = R(p w) X
    // correct. X a fixed pseudo-random [L, d], Y turned in float64 by HF's rotate_half pairs
    // (modeling_llama.py, apply_rotary_pos_emb) at theta 10000.
    void applyTwiceAtFactorOneIsNoCorrect()
    {
        constexpr std::int64_t rows = 64, d = 64, h = d / 2;
        std::vector<double> x;
        std::uint64_t state = 12345;
        for (std::int64_t k = 0; k < rows * d; ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            x.push_back(double(state >> 11) / double(1ULL << 53) * 2.0 - 1.0);
        }
        const auto turned = [&](double times) {
            std::vector<double> y(x.size());
            for (std::int64_t p = 0; p < rows; ++p)
                for (std::int64_t i = 0; i < h; ++i) {
                    const double a = times * double(p) * std::pow(10000.0, -2.0 * double(i) / double(d));
                    const double x1 = x[std::size_t(p * d + i)], x2 = x[std::size_t(p * d + i + h)];
                    y[std::size_t(p * d + i)] = x1 * std::cos(a) - x2 * std::sin(a);
                    y[std::size_t(p * d + i + h)] = x2 * std::cos(a) + x1 * std::sin(a);
                }
            return y;
        };
        const QString xFile = write(u"x.npy"_s, npy({rows, d}, x));
        const QStringList flags {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"64"_s};
        const CliRun::Run once = CliRun::posenc(
            QStringList {u"check"_s, u"--apply"_s, xFile, write(u"y1.npy"_s, npy({rows, d}, turned(1.0)))} + flags);
        QVERIFY2(once.exitCode == 0 && once.out.contains(u"verdict: correct"_s), qPrintable(once.out));
        const CliRun::Run twice = CliRun::posenc(
            QStringList {u"check"_s, u"--apply"_s, xFile, write(u"y2.npy"_s, npy({rows, d}, turned(2.0)))} + flags);
        QVERIFY2(twice.exitCode == 1 && twice.out.contains(u"verdict: mistake"_s), qPrintable(twice.out));
        QVERIFY2(twice.out.contains(u"every row r is at position 2 r"_s), qPrintable(twice.out));
        QVERIFY2(twice.out.contains(u"RoPE applied twice"_s), qPrintable(twice.out));
    }

    // A 24 x 24 grid resized to 56 x 40 patches by torch 1.13 (tests/data/gridresize): the faithful
    // resize correct, F.interpolate's without align_corners named; neither refused.
    void torchResizeRead()
    {
        const QString grid = QFINDTESTDATA("../data/gridresize/grid.npy");
        QVERIFY(!grid.isEmpty());
        const QStringList flags {u"--expect-table"_s, grid};
        const Checked fixed = checkFile(QFINDTESTDATA("../data/gridresize/fixed.npy"), flags);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
        const Checked buggy = checkFile(QFINDTESTDATA("../data/gridresize/buggy.npy"), flags);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"resized-without-align-corners"_s},
                 qPrintable(buggy.shown));
    }

    // xLLM-AI/xllm#746: the second half of emb at the t ids: mrope-columns-axis, its columns named;
    // the faithful float32 table correct, and the buggy one's deviating columns all in the second
    // half (the first half's float32 rounding is no deviation).
    void mropeSecondHalfNamed()
    {
        const Checked fixed = check(npy({112, 128}, qwen3VlCos(false)), kQwen3Vl);
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
        const Checked buggy = check(npy({112, 128}, qwen3VlCos(true)), kQwen3Vl);
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"mrope-columns-axis"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"second half of emb = cat(freqs, freqs) holds every pair at the t ids"_s),
                 qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"columns 65, 68, 71"_s), qPrintable(buggy.shown));
        QVERIFY2(buggy.json[u"precision"_s].toString() == u"float32-angles"_s, qPrintable(buggy.shown));
        const CliRun::Run text
            = CliRun::posenc(QStringList {u"check"_s, m_dir.filePath(u"t.npy"_s), u"--quiet"_s} + kQwen3Vl);
        const qsizetype at = text.out.indexOf(u"deviating: "_s);
        QVERIFY2(at >= 0, qPrintable(text.out));
        const QString deviating = text.out.mid(at, text.out.indexOf(u'\n', at) - at);
        QVERIFY2(deviating.contains(u"columns 65..66"_s) && !deviating.contains(u"columns 1..8"_s),
                 qPrintable(deviating));
    }

    // [1, 10] ids of a pack of 4 and 6 under M-RoPE whose default prompt holds an image and a video:
    // the refusal says a text pack needs --prompt text:N; with it the ids are correct.
    void mropePackRefusalSaysWhatToGive()
    {
        std::vector<std::int64_t> ids {0, 1, 2, 3, 0, 1, 2, 3, 4, 5};
        const QString file = write(u"ids.npy"_s, npyIds(1, 10, ids));
        const QStringList flags {u"--position-ids"_s, file,     u"--encoding"_s, u"mrope"_s,
                                 u"--packed"_s,       u"4,6"_s, u"--max-len"_s,  u"10"_s};
        const CliRun::Run refused = CliRun::posenc(QStringList {u"check"_s} + flags);
        QVERIFY2(refused.exitCode == 2, qPrintable(refused.out + refused.err));
        QVERIFY2(refused.err.contains(u"--prompt text:N"_s), qPrintable(refused.err));
        QCOMPARE(refused.err.trimmed().count(u'\n'), 0);
        const CliRun::Run text
            = CliRun::posenc(QStringList {u"check"_s} + flags + QStringList {u"--prompt"_s, u"text:10"_s});
        QVERIFY2(text.exitCode == 0, qPrintable(text.out + text.err));
    }

    // Against a reference table (--expect-table) nothing is declared: the sentences a family makes
    // against the reference's reading say "the reference table's", where they are made
    // (DeclaredWords), notes included.
    void referenceTableSentencesSayWhoGaveIt_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mistake");
        QTest::newRow("sinusoid at base 5000 against 10000") << 0 << u"base"_s;
        QTest::newRow("RoPE with bf16 angles against exact ones") << 1 << u"half-precision-angles"_s;
        QTest::newRow("RoPE at the reciprocal frequencies") << 3 << u"rope-frequencies-inverted"_s;
    }

    void referenceTableSentencesSayWhoGaveIt()
    {
        QFETCH(int, kind);
        QFETCH(QString, mistake);
        constexpr std::int64_t rows = 256, d = 64;
        std::vector<double> port, dump;
        for (std::int64_t p = 0; p < rows; ++p)
            for (std::int64_t j = 0; j < d; ++j) {
                const double inv = std::pow(10000.0, -2.0 * double(j % (d / 2)) / double(d));
                port.push_back(kind == 0       ? sinusoid(p, j, d, 5000.0)
                                   : kind == 1 ? ropeCos(p, j, d, true)
                                               : std::cos(double(p) / inv));
                dump.push_back(kind == 0 ? sinusoid(p, j, d, 10000.0) : ropeCos(p, j, d, false));
            }
        const QString file = write(u"port.npy"_s, npy({rows, d}, port));
        const QString reference = write(u"dump.npy"_s, npy({rows, d}, dump));
        const CliRun::Run run = CliRun::posenc({u"check"_s, file, u"--expect-table"_s, reference});
        QVERIFY2(run.exitCode == 1 && run.out.contains(u"verdict: mistake (%1)"_s.arg(mistake)), qPrintable(run.out));
        for (const QString &declared : {u"declaration gives"_s, u"was declared"_s, u"is declared"_s, u"the declared"_s,
                                        u"declared parameters"_s, u"not declared"_s})
            QVERIFY2(!run.out.contains(declared), qPrintable(declared + u" in: "_s + run.out));
        QVERIFY2(run.out.contains(u"the reference table's"_s), qPrintable(run.out));
    }

    // A 6 x 6 grid's rows transposed against the grid: grid-axes-swapped in plain words.
    void gridAxesSwappedSaidPlainly()
    {
        constexpr std::int64_t n = 6, channels = 8;
        std::vector<double> right, transposed;
        const auto cell = [](std::int64_t r, std::int64_t ch) {
            return 0.02 * std::sin(1.3 * double(r) + 0.7 * double(ch) + 0.05 * double(r * r));
        };
        for (std::int64_t r = 0; r < n * n; ++r)
            for (std::int64_t ch = 0; ch < channels; ++ch) {
                right.push_back(cell(r, ch));
                transposed.push_back(cell((r % n) * n + r / n, ch));
            }
        const Checked c = check(npy({n * n, channels}, transposed),
                                {u"--expect-table"_s, write(u"reference.npy"_s, npy({n * n, channels}, right))});
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"grid-axes-swapped"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"hold the reference's row of another patch instead of their own"_s),
                 qPrintable(c.shown));
        QVERIFY2(!c.diagnosis().contains(u"learned grid read transposed"_s), qPrintable(c.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectClasses)
} // namespace tst_cliexpectclasses
#include "tst_cliexpectclasses.moc"
