// posenc check on biases defined up to a constant per query row, and on readings of a table's
// structure that hold under any declaration (issue 56, held-out bugs of brief h24i).
//
// A bias added to attention scores is one bias up to a constant per query row: the softmax over a
// row's keys ignores it. BLOOM's scores before the mask hold m·j: transformers'
// src/transformers/models/bloom/modeling_bloom.py, build_alibi_tensor (arange_tensor =
// ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]; alibi = slopes[..., None] *
// arange_tensor), then BloomAttention's alibi.baddbmm(query, key) and the causal mask; MPT's
// build_mpt_alibi_tensor m·(j − L + 1); HF's causal ALiBi −m (i − j). The buggy ggml_alibi before
// ggml-org/ggml#143 added (i + 1)·m, a function of the query alone. Every tensor is written here in
// float64 from those formulas (get_slopes: tests/support/AlibiReference.h), as float32.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/KerpleReference.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <vector>

namespace tst_clirowconstant {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kHeads = 16;
constexpr std::int64_t kLength = 64;
constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

using Bias = std::function<double(double m, std::int64_t i, std::int64_t j)>;

// [16, 64, 64]: head h's cell (i, j) bias(m_h, i, j), `fill` after the query (NaN: unmasked).
QByteArray stack(const Bias &bias, double fill)
{
    const std::vector<double> m = alibiref::slopes(kHeads);
    std::vector<double> v;
    for (std::int64_t h = 0; h < kHeads; ++h)
        for (std::int64_t i = 0; i < kLength; ++i)
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(j > i && !std::isnan(fill) ? fill : bias(m[std::size_t(h)], i, j));
    return npy({kHeads, kLength, kLength}, v);
}

const Bias kBloom = [](double m, std::int64_t, std::int64_t j) { return m * double(j); };
const Bias kMpt = [](double m, std::int64_t, std::int64_t j) { return m * double(j - kLength + 1); };
const Bias kHf = [](double m, std::int64_t i, std::int64_t j) { return -m * double(i - j); };
const Bias kGgmlBug = [](double m, std::int64_t i, std::int64_t) { return double(i + 1) * m; };

using CliCheck::Checked;

const QStringList kAlibi16 {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s};

} // namespace

class TestCliRowConstant : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const QByteArray &bytes, const QStringList &flags) { return CliCheck::check(m_dir, bytes, flags); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // BLOOM's m·j and MPT's m·(j − L + 1) under a causal mask (−inf, or float32's lowest as HF's
    // masks fill) are ALiBi's bias up to each row's constant: correct, undeclared and declared, the
    // removed constant said; HF's −m (i − j) is correct with nothing removed.
    void oneBiasUpToARowConstant_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("shifted");
        QTest::newRow("BLOOM m·j, -inf") << stack(kBloom, kMinusInf) << true;
        QTest::newRow("BLOOM m·j, float32's lowest") << stack(kBloom, -double(FLT_MAX)) << true;
        QTest::newRow("MPT m·(j − L + 1), -inf") << stack(kMpt, kMinusInf) << true;
        QTest::newRow("HF −m (i − j), -inf") << stack(kHf, kMinusInf) << false;
    }
    void oneBiasUpToARowConstant()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, shifted);
        for (const QStringList &flags : {QStringList(), kAlibi16}) {
            const Checked c = check(bytes, flags);
            const QString context = flags.join(u' ') + u": "_s + c.shown;
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(context));
            QCOMPARE(c.diagnosis().contains(u"constant per query row"_s), shifted);
        }
    }

    // KERPLE's log kernel (KERPLE's own code, tests/support/KerpleReference.h) with a constant per
    // query row added (0.375 i, as a key bias broadcast would leave): correct, undeclared and
    // declared, as the bias alone is, the removed constant said.
    void kerpleUpToARowConstant()
    {
        std::vector<double> v;
        for (std::int64_t i = 0; i < kLength; ++i)
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(j > i ? kMinusInf
                                  : kerpleref::bias(2.0, 0.5, i, j, kerpleref::Dtype::Float32) + 0.375 * double(i));
        const QStringList declared {u"--expect"_s,    u"kerple"_s, u"--kerple-heads"_s, u"1"_s,
                                    u"--kerple-r1"_s, u"2"_s,      u"--kerple-r2"_s,    u"0.5"_s};
        for (const QStringList &flags : {QStringList(), declared}) {
            const Checked c = check(npy({kLength, kLength}, v), flags);
            const QString context = flags.join(u' ') + u": "_s + c.shown;
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(context));
            QVERIFY2(c.diagnosis().contains(u"constant per query row"_s), qPrintable(context));
        }
    }

    // Unmasked, BLOOM's m·j (every row the same: the [B·H, 1, L] key bias as BloomAttention's
    // alibi.baddbmm(query, key) broadcasts it over the queries, before masked_fill applies the causal
    // mask; transformers' modeling_bloom.py, BloomAttention.forward) is the causal bias before its mask,
    // as HF's unmasked −m (i − j) is: correct undeclared and declared (the default mask is causal),
    // never same-row. Declared symmetric it is x-transformers#88's bidirectional bug: a mistake of the
    // mask, bias-mask, never same-row.
    void unmaskedBloomIsTheBiasBeforeTheMask()
    {
        for (const QStringList &flags : {QStringList(), kAlibi16}) {
            for (const Bias &bias : {kBloom, kHf}) {
                const Checked c = check(stack(bias, std::numeric_limits<double>::quiet_NaN()), flags);
                const QString context = flags.join(u' ') + u": "_s + c.shown;
                QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(context));
                QVERIFY2(c.all().contains(u"before"_s), qPrintable(context));
            }
        }
        const QStringList symmetric = kAlibi16 + QStringList {u"--alibi"_s, u"symmetric"_s};
        const Checked c = check(stack(kBloom, std::numeric_limits<double>::quiet_NaN()), symmetric);
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"bias-mask"_s}, qPrintable(c.shown));
    }

    // Held-out set 4's F11: x-transformers' [8, 1, 256] key bias m·j broadcast to [1, 8, 256, 256]
    // as BLOOM's scores hold it before the mask (np.broadcast_to(b[None], (1, 8, 256, 256))):
    // correct undeclared and declared causal, a mistake of the mask declared symmetric.
    void bloomBroadcastBeforeTheMask()
    {
        const std::vector<double> m = alibiref::slopes(8);
        std::vector<double> v;
        for (std::int64_t h = 0; h < 8; ++h)
            for (std::int64_t i = 0; i < 256; ++i)
                for (std::int64_t j = 0; j < 256; ++j)
                    v.push_back(m[std::size_t(h)] * double(j));
        const QByteArray bytes = npy({1, 8, 256, 256}, v);
        const QStringList alibi8 {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s};
        for (const QStringList &flags : {QStringList(), alibi8, alibi8 + QStringList {u"--alibi"_s, u"causal"_s}}) {
            const Checked c = check(bytes, flags);
            const QString context = flags.join(u' ') + u": "_s + c.shown;
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(context));
        }
        const Checked c = check(bytes, alibi8 + QStringList {u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"bias-mask"_s}, qPrintable(c.shown));
    }

    // Held-out set 4's F1 (x-transformers#88): the key bias [8, 1, 256] of m·j (AlibiPositionalBias
    // before the fix: bias = arange(j) * slopes) is ALiBi's bias only under a causal mask: correct
    // undeclared and declared causal, a mistake of the mask (bias-mask) declared symmetric, the causal
    // reading said.
    void keyBiasUnderADeclaredSymmetricMask()
    {
        const std::vector<double> m = alibiref::slopes(8);
        std::vector<double> v;
        for (std::int64_t h = 0; h < 8; ++h)
            for (std::int64_t j = 0; j < 256; ++j)
                v.push_back(m[std::size_t(h)] * double(j));
        const QByteArray bytes = npy({8, 1, 256}, v);
        const QStringList alibi8 {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s};
        for (const QStringList &flags : {QStringList(), alibi8, alibi8 + QStringList {u"--alibi"_s, u"causal"_s}}) {
            const Checked c = check(bytes, flags);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(flags.join(u' ') + u": "_s + c.shown));
        }
        const Checked c = check(bytes, alibi8 + QStringList {u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"bias-mask"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"causal"_s) && c.diagnosis().contains(u"symmetric"_s), qPrintable(c.shown));
    }

    // ggml_alibi's bug (before ggml-org/ggml#143): (i + 1)·m, constant along each query row, is
    // zero once each row's constant is removed: bias-follows-query, the head (slice) and a row's
    // cells named, undeclared and declared; never a slope read from it.
    void biasOfTheQueryAloneIsNamed()
    {
        for (const QStringList &flags : {QStringList(), kAlibi16}) {
            const Checked c = check(stack(kGgmlBug, kMinusInf), flags);
            const QString context = flags.join(u' ') + u": "_s + c.shown;
            QCOMPARE(c.exit, 1);
            QVERIFY2(c.mistakes() == QJsonArray {u"bias-follows-query"_s}, qPrintable(context));
            QVERIFY2(c.diagnosis().contains(u"slice [0]"_s), qPrintable(context));
            // Head 1's slope 2^-0.5: its row r holds (r + 1)·m, one more m from row to row.
            QVERIFY2(c.diagnosis().contains(u"moves by 0.707107"_s), qPrintable(context));
            QVERIFY2(!c.all().contains(u"slope 0"_s) && !c.all().contains(u"-1.41"_s), qPrintable(context));
        }
    }

    // A sinusoid table whose every row is the reference's row 110 (DiffPoseTalk's pe[:, L] where
    // pe[:, :L] is meant): same-row undeclared and declared, the declared reference's row named.
    void repeatedRowIsNamedDeclared()
    {
        constexpr std::int64_t rows = 128, d = 64, repeated = 110;
        std::vector<double> v;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < d; ++c) {
                // The paper's PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...).
                const double angle = double(repeated) * std::exp(-double(c / 2 * 2) * std::log(10000.0) / double(d));
                v.push_back(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
            }
        const QByteArray bytes = npy({rows, d}, v);
        const Checked undeclared = check(bytes, {});
        QVERIFY2(undeclared.mistakes() == QJsonArray {u"same-row"_s}, qPrintable(undeclared.shown));
        const Checked declared = check(bytes, {u"--expect"_s, u"sinusoidal"_s});
        QVERIFY2(declared.mistakes() == QJsonArray {u"same-row"_s}, qPrintable(declared.shown));
        QVERIFY2(declared.diagnosis().contains(u"reference's row 110"_s), qPrintable(declared.shown));
        QVERIFY2(!declared.diagnosis().contains(u"explains it"_s), qPrintable(declared.shown));
    }

    // jadore801120/attention-is-all-you-need-pytorch's position_encoding_init (transformer/Models.py):
    // row pos the paper's interleaved sinusoid at pos, row 0 (the padding index) zeros. Undeclared and
    // declared alike correct; a zero row elsewhere, declared, stays a mistake.
    void paddingRowIsTheDeclaredReferences()
    {
        constexpr std::int64_t rows = 128, d = 64;
        const auto table = [&](std::int64_t zeroRow) {
            std::vector<double> v;
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t c = 0; c < d; ++c) {
                    const double angle = double(r) / std::pow(10000.0, double(c / 2 * 2) / double(d));
                    v.push_back(r == zeroRow ? 0.0 : c % 2 == 0 ? std::sin(angle) : std::cos(angle));
                }
            return npy({rows, d}, v);
        };
        const Checked undeclared = check(table(0), {});
        QVERIFY2(undeclared.exit == 0, qPrintable(undeclared.shown));
        const Checked declared = check(table(0), {u"--expect"_s, u"sinusoidal"_s});
        QVERIFY2(declared.exit == 0 && declared.verdict() == u"correct"_s, qPrintable(declared.shown));
        QVERIFY2(declared.mistakes().isEmpty(), qPrintable(declared.shown));
        const Checked middle = check(table(50), {u"--expect"_s, u"sinusoidal"_s});
        QVERIFY2(middle.exit == 1 && middle.verdict() == u"mistake"_s, qPrintable(middle.shown));
    }

    // 48 rows that each hold RoPE's cos row at one position p, its angle formed in float32 as
    // transformers' LlamaRotaryEmbedding.forward forms it (inv_freq in float32, p · inv_freq in
    // float32, cat(freqs, freqs)), declared RoPE at theta 10000: same-row, read as the cos table
    // (not the sin table), the repeated row found at p within float32 angles' rounding and the
    // declared rows pe[:, 0:48] said; a single cos row at p declared at 0 deviates from the cos table.
    void ropeRowRepeatedIsFoundAtItsPosition_data()
    {
        QTest::addColumn<int>("position");
        QTest::newRow("300") << 300;
        QTest::newRow("1000") << 1000;
    }
    void ropeRowRepeatedIsFoundAtItsPosition()
    {
        QFETCH(int, position);
        constexpr std::int64_t rows = 48, dim = 64;
        std::vector<double> row;
        for (std::int64_t c = 0; c < dim; ++c) {
            const auto i = double(c % (dim / 2));
            const auto invFreq = float(1.0 / std::pow(10000.0, double(float(2.0 * i) / float(dim))));
            row.push_back(std::cos(double(float(position) * invFreq)));
        }
        std::vector<double> v;
        for (std::int64_t r = 0; r < rows; ++r)
            v.insert(v.end(), row.begin(), row.end());
        const QStringList rope {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"64"_s};
        // With --head-dim and without it (the table's width gives head_dim 64 alike): the cos row.
        for (const QStringList &flags : {rope, rope.mid(0, 4)}) {
            const Checked c = check(npy({rows, dim}, v), flags);
            QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"same-row"_s}, qPrintable(c.shown));
            QVERIFY2(c.json[u"encoding"_s].toString() == u"rope-cos"_s, qPrintable(c.shown));
            QVERIFY2(c.diagnosis().contains(u"every row holds position %1"_s.arg(position)), qPrintable(c.shown));
            QVERIFY2(!c.diagnosis().contains(u"none of"_s), qPrintable(c.shown));
        }
        const Checked one = check(npy({1, dim}, row), rope + QStringList {u"--positions"_s, u"0:1"_s});
        QVERIFY2(one.exit == 1 && one.json[u"encoding"_s].toString() == u"rope-cos"_s, qPrintable(one.shown));
        QVERIFY2(one.diagnosis().contains(u"rope-cos"_s) && !one.diagnosis().contains(u"rope-sin"_s),
                 qPrintable(one.shown));
    }

    // A grid's reference ends at its last patch: a 4 x 6 Pixtral table (transformers'
    // models/pixtral/modeling_pixtral.py, PixtralRotaryEmbedding: freqs[::2] on the row, freqs[1::2]
    // on the column, cat twice) whose every row is patch (9, 9)'s, no patch of the grid: same-row,
    // the repeated row sought among the grid's 24 rows only, and said so.
    void repeatedRowOutsideAGridIsSoughtWithinIt()
    {
        constexpr std::int64_t rows = 4, columns = 6, dim = 64, outside = 9;
        std::vector<double> row;
        for (std::int64_t c = 0; c < dim; ++c) {
            const std::int64_t pair = c % (dim / 2);
            const std::int64_t k = pair < dim / 4 ? 2 * pair : 2 * (pair - dim / 4) + 1;
            row.push_back(std::cos(double(outside) / std::pow(10000.0, double(2 * k) / double(dim))));
        }
        std::vector<double> v;
        for (std::int64_t r = 0; r < rows * columns; ++r)
            v.insert(v.end(), row.begin(), row.end());
        const Checked c = check(npy({rows * columns, dim}, v),
                                {u"--expect"_s, u"rope-2d"_s, u"--preset"_s, u"pixtral-12b-vision"_s, u"--grid"_s,
                                 u"%1,%2"_s.arg(rows).arg(columns), u"--patch"_s, u"auto"_s});
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"same-row"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"reference's first 24 rows"_s), qPrintable(c.shown));
    }

    // A correct RoPE cos table of two packed documents (rows at positions 0..299, then 0..211:
    // Megatron's reset_position_ids) is no mistake undeclared: unknown, the restart said.
    void packedDocumentsAreUnknown()
    {
        constexpr std::int64_t dim = 64;
        std::vector<double> v;
        for (std::int64_t r = 0; r < 512; ++r) {
            const std::int64_t position = r < 300 ? r : r - 300;
            for (std::int64_t c = 0; c < dim; ++c) {
                // HF's rotary cos: inv_freq = 1 / 10000^(2k/dim), emb = cat(freqs, freqs).
                const double inv = 1.0 / std::pow(10000.0, double(2 * (c % (dim / 2))) / double(dim));
                v.push_back(std::cos(double(position) * inv));
            }
        }
        const Checked c = check(npy({512, dim}, v), {});
        QVERIFY2(c.exit == 7 && c.verdict() == u"unknown"_s, qPrintable(c.shown));
        QVERIFY2(c.all().contains(u"rows 300.. restart at position 0"_s), qPrintable(c.shown));
        QVERIFY2(c.all().contains(u"--position-ids"_s), qPrintable(c.shown));
    }

    // Held-out set 4's F7: fixed 2-D sine tables that no family of posenc makes are formulas, not
    // trained tables: never `learned` undeclared (a learned verdict needs a table without a formula's
    // structure). LoFTR's PositionEncodingSine (zju3dv/LoFTR src/loftr/utils/position_encoding.py:
    // div_term = exp(arange(0, d/2, 2) · (−ln 10000 / (d/2))), pe[0::4] = sin(x div), pe[1::4] = cos(x
    // div), pe[2::4] = sin(y div), pe[3::4] = cos(y div), x and y from 1) of a 12 x 16 map, d = 64,
    // flattened to [(h w), c]; and physicsnemo's SongUNetPosEmbd grid (song_unet.py,
    // _get_positional_embedding, gridtype sinusoidal: sin and cos of linspace(0, 2π, n) per axis,
    // channels (sin x, sin y, cos x, cos y)) of a 64 x 96 image.
    void formulaTablesAreNotLearned()
    {
        std::vector<double> loftr;
        constexpr std::int64_t d = 64, h = 12, w = 16;
        for (std::int64_t r = 0; r < h; ++r)
            for (std::int64_t c = 0; c < w; ++c)
                for (std::int64_t ch = 0; ch < d; ++ch) {
                    const double div = std::exp(double(ch / 4 * 2) * (-std::log(10000.0) / double(d / 2)));
                    const double at = double(ch % 4 < 2 ? c + 1 : r + 1) * div;
                    loftr.push_back(ch % 2 == 0 ? std::sin(at) : std::cos(at));
                }
        std::vector<double> grid;
        constexpr std::int64_t ny = 64, nx = 96;
        for (std::int64_t r = 0; r < ny; ++r)
            for (std::int64_t c = 0; c < nx; ++c) {
                const double x = 2.0 * std::numbers::pi * double(c) / double(nx - 1);
                const double y = 2.0 * std::numbers::pi * double(r) / double(ny - 1);
                for (const double v : {std::sin(x), std::sin(y), std::cos(x), std::cos(y)})
                    grid.push_back(v);
            }
        for (const QByteArray &bytes : {npy({h * w, d}, loftr), npy({ny * nx, 4}, grid)}) {
            const Checked c = check(bytes, {});
            QVERIFY2(c.verdict() != u"learned"_s && c.exit != 6, qPrintable(c.shown));
            QVERIFY2(c.verdict() == u"unknown"_s || c.verdict() == u"variant"_s, qPrintable(c.shown));
            QVERIFY2(c.all().contains(u"sine and a cosine"_s), qPrintable(c.shown));
        }
    }

    // Held-out set 4's F6: physicsnemo's grid with its x and y channels exchanged (physicsnemo#1096:
    // grid_y1, grid_x1 = np.meshgrid(x1, y1) for grid_x1, grid_y1 = ...) against the right grid
    // (--expect-table): columns-swapped, the pairs 0 and 1, 2 and 3 named; the right grid correct.
    void columnsSwappedAgainstATable()
    {
        constexpr std::int64_t ny = 64, nx = 96;
        std::vector<double> right, swapped;
        for (std::int64_t r = 0; r < ny; ++r)
            for (std::int64_t c = 0; c < nx; ++c) {
                // song_unet.py: x1 = sin(linspace(0, 2π, nx)), x2 = cos(...), y1, y2 of ny; grid
                // stack((grid_x1, grid_y1, grid_x2, grid_y2)); the bug's grid_x1 the y axis's.
                const double x = 2.0 * std::numbers::pi * double(c) / double(nx - 1);
                const double y = 2.0 * std::numbers::pi * double(r) / double(ny - 1);
                for (const double v : {std::sin(x), std::sin(y), std::cos(x), std::cos(y)})
                    right.push_back(v);
                for (const double v : {std::sin(y), std::sin(x), std::cos(y), std::cos(x)})
                    swapped.push_back(v);
            }
        const QString reference = m_dir.filePath(u"reference.npy"_s);
        QFile f(reference);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(npy({ny * nx, 4}, right));
        f.close();
        const Checked buggy = check(npy({ny * nx, 4}, swapped), {u"--expect-table"_s, reference});
        QVERIFY2(buggy.exit == 1 && buggy.mistakes() == QJsonArray {u"columns-swapped"_s}, qPrintable(buggy.shown));
        QVERIFY2(buggy.diagnosis().contains(u"0 and 1, 2 and 3"_s), qPrintable(buggy.shown));
        const Checked fixed = check(npy({ny * nx, 4}, right), {u"--expect-table"_s, reference});
        QVERIFY2(fixed.exit == 0 && fixed.verdict() == u"correct"_s, qPrintable(fixed.shown));
    }

    // Key biases [16, 1, 64] whose every key holds the head's slope (no key's position in it),
    // declared ALiBi: read as 16 heads' rows over the keys, as the shape says, never as one head's
    // 16 x 64 table, and named a bias the softmax cancels.
    void keyBiasesReadByShape()
    {
        const std::vector<double> m = alibiref::slopes(kHeads);
        std::vector<double> v;
        for (std::int64_t h = 0; h < kHeads; ++h)
            for (std::int64_t j = 0; j < kLength; ++j)
                v.push_back(m[std::size_t(h)]);
        const Checked c = check(npy({kHeads, 1, kLength}, v), kAlibi16);
        QCOMPARE(c.exit, 1);
        QVERIFY2(c.mistakes() == QJsonArray {u"bias-follows-query"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"16 rows of 64 keys"_s), qPrintable(c.shown));
        QVERIFY2(!c.all().contains(u"causal"_s), qPrintable(c.shown));
        // The correct key biases stay correct.
        std::vector<double> key;
        for (std::int64_t h = 0; h < kHeads; ++h)
            for (std::int64_t j = 0; j < kLength; ++j)
                key.push_back(m[std::size_t(h)] * double(j));
        const Checked correct = check(npy({kHeads, 1, kLength}, key), kAlibi16);
        QVERIFY2(correct.exit == 0, qPrintable(correct.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRowConstant)
} // namespace tst_clirowconstant
#include "tst_clirowconstant.moc"
