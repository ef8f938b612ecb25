// posenc check on the shapes engineers dump besides an L x d table (issue 56, item 1;
// docs/ARCHITECTURE.md, Checking a table, "Shapes"): RoPE's inv_freq, ALiBi's slopes, per-head
// biases [H, L, L] and [B, H, L, L], BLOOM's and MPT's key biases, stacks of caches, Meta's
// freqs_cis as complex pairs. Each tensor is
// computed here from float64 formulas written in the test (the references' own: transformers'
// modeling_rope_utils.py _compute_default/_linear/_llama3_parameters; get_slopes of
// ofirpress/attention_with_linear_biases, BLOOM's build_alibi_tensor, MPT's build_mpt_alibi_tensor;
// LoFTR's PositionEncodingSine), a correct one and a wrong one of each shape.
#include "CliRun.h"
#include "support/AlibiReference.h"
#include "support/DetrReference.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

namespace tst_clishapes {
using namespace Qt::StringLiterals;

namespace {

// `descr` '<c8': `values` are the complex elements' real and imaginary parts, interleaved.
QByteArray npy(const std::vector<std::int64_t> &shape, const std::vector<float> &values, const char *descr = "<f4")
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    const QByteArray text = (u"("_s + dims.join(u", "_s) + (shape.size() == 1 ? u","_s : u""_s) + u")"_s).toUtf8();
    QByteArray dict = "{'descr': '" + QByteArray(descr) + "', 'fortran_order': False, 'shape': " + text + ", }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    return bytes + QByteArray(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
}

// _compute_default_rope_parameters: 1 / theta^(2i / d).
std::vector<double> defaultInv(double theta, int dim)
{
    std::vector<double> inv;
    for (int i = 0; i < dim; i += 2)
        inv.push_back(1.0 / std::pow(theta, double(i) / double(dim)));
    return inv;
}

// _compute_llama3_parameters: wavelengths past original / low_freq_factor divided by the factor,
// those below original / high_freq_factor kept, the band between blended.
std::vector<double> llama3Inv(double theta, int dim, double factor, double low, double high, double original)
{
    std::vector<double> inv = defaultInv(theta, dim);
    const double lowWavelen = original / low, highWavelen = original / high;
    for (double &w : inv) {
        const double wavelen = 2.0 * M_PI / w;
        if (wavelen > lowWavelen) {
            w /= factor;
        } else if (wavelen >= highWavelen) {
            const double smooth = (original / wavelen - low) / (high - low);
            w = (1.0 - smooth) * w / factor + smooth * w;
        }
    }
    return inv;
}

// float32 rounded to bfloat16 (to nearest even), as torch's .to(torch.bfloat16) does.
float bf16(float x)
{
    quint32 bits;
    std::memcpy(&bits, &x, 4);
    bits = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff0000u;
    std::memcpy(&x, &bits, 4);
    return x;
}

std::vector<float> asFloat(const std::vector<double> &v)
{
    return std::vector<float>(v.begin(), v.end());
}

// Causal ALiBi of each head, [heads, L, L]: -m (i - j) at and before the query, -inf after.
std::vector<float> alibiHeads(const std::vector<double> &slopes, int length)
{
    std::vector<float> out;
    for (const double m : slopes) {
        for (int i = 0; i < length; ++i) {
            for (int j = 0; j < length; ++j)
                out.push_back(j > i ? -INFINITY : float(-m * double(i - j)));
        }
    }
    return out;
}

// T5Attention.compute_bias: [1, H, L, L], cell (h, i, j) the weight of bucket(j - i) (or i - j,
// `mirrored`) for head h, the weights a fixed pseudo-random [buckets, H] table.
std::vector<float> t5Bias(int heads, int length, bool bidirectional, bool mirrored = false)
{
    std::vector<float> out;
    for (int h = 0; h < heads; ++h) {
        for (int i = 0; i < length; ++i) {
            for (int j = 0; j < length; ++j) {
                const int b = int(t5ref::t5Float32(mirrored ? i - j : j - i, 32, 128, bidirectional));
                out.push_back(float(std::sin(1.7 * b + 0.3 * h + 0.1)));
            }
        }
    }
    return out;
}

// HF's cos cache of the default type, [L, d] in the half layout, at positions from `first`.
std::vector<float> cosTable(int length, int dim, double theta, int first)
{
    const std::vector<double> inv = defaultInv(theta, dim);
    std::vector<float> out;
    for (int p = first; p < first + length; ++p) {
        for (int c = 0; c < dim; ++c)
            out.push_back(float(std::cos(double(p) * inv[std::size_t(c % (dim / 2))])));
    }
    return out;
}

// vLLM's cos_sin_cache (vllm/model_executor/layers/rotary_embedding.py,
// RotaryEmbedding._compute_cos_sin_cache): cat(cos(p inv), sin(p inv)) along the last dimension.
// Row r at position r, or at positions[r] where given (a cache keyed without its offset).
std::vector<float> cosSinCache(int length, const std::vector<double> &inv, const std::vector<int> &positions = {})
{
    std::vector<float> t;
    for (int r = 0; r < length; ++r) {
        const int p = positions.empty() ? r : positions[std::size_t(r)];
        for (const double w : inv)
            t.push_back(float(std::cos(p * w)));
        for (const double w : inv)
            t.push_back(float(std::sin(p * w)));
    }
    return t;
}

// LoFTR's PositionEncodingSine pe [C, H, W]: channels 4k..4k+3 sin(x w), cos(x w), sin(y w), cos(y w)
// at x = column + 1, y = row + 1, w = exp(2k · -ln(10000) / (C/2)), or exp(-2k) with the floored
// div_term (temp_bug_fix=False).
std::vector<float> loftr(int c, int h, int w, bool floored)
{
    std::vector<float> t;
    for (int ch = 0; ch < c; ++ch)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const double f = std::exp(double(ch / 4 * 2) * (floored ? -1.0 : -std::log(10000.0) / (c / 2)));
                const double coordinate = (ch % 4) < 2 ? x + 1 : y + 1;
                t.push_back(float(ch % 2 == 0 ? std::sin(coordinate * f) : std::cos(coordinate * f)));
            }
    return t;
}

// Meta's freqs_cis (llama-models, precompute_freqs_cis: torch.polar(ones, outer(t, freqs))) as
// torch.view_as_real gives it: each position's (cos, sin) of every frequency, interleaved.
std::vector<float> freqsCis(int rows, const std::vector<double> &inv)
{
    std::vector<float> t;
    for (int p = 0; p < rows; ++p)
        for (const double w : inv) {
            t.push_back(float(std::cos(p * w)));
            t.push_back(float(std::sin(p * w)));
        }
    return t;
}

std::vector<float> repeated(const std::vector<float> &v, int times)
{
    std::vector<float> out;
    for (int k = 0; k < times; ++k)
        out.insert(out.end(), v.begin(), v.end());
    return out;
}

// A batch of cos|sin caches [B, L, 2K] (torch.cat((cos, sin), -1) dumped per sequence): each slice
// two tables side by side, as a table of that shape is; one whose sin half turns a position late
// (its sin of p + 1) is still the batch's mistake, in its slice.
void batchedCosSinRows(const std::vector<double> &llama, const QStringList &llamaFlags)
{
    const std::vector<float> cache = cosSinCache(96, llama);
    QTest::newRow("cos|sin caches [3, 96, 128], Llama 3.1")
        << npy({3, 96, 128}, repeated(cache, 3)) << QStringList() << u"correct"_s << QString() << u"3 slices"_s;
    QTest::newRow("cos|sin caches [3, 96, 128], Llama 3.1 declared")
        << npy({3, 96, 128}, repeated(cache, 3)) << llamaFlags << u"correct"_s << QString() << u"3 slices"_s;
    std::vector<float> lateSin = repeated(cache, 2);
    for (int r = 0; r < 96; ++r) {
        const std::vector<float> row = cosSinCache(1, llama, {r + 1});
        lateSin.insert(lateSin.end(), cache.begin() + r * 128, cache.begin() + r * 128 + 64);
        lateSin.insert(lateSin.end(), row.begin() + 64, row.begin() + 128);
    }
    QTest::newRow("cos|sin caches [3, 96, 128], batch 2's sin a position late")
        << npy({3, 96, 128}, lateSin) << llamaFlags << u"mistake"_s << QString() << u"slice [2]"_s;
}

// meta-llama/llama-models#241: Llama 3.2's freqs_cis saved as view_as_real ([L, d/2, 2]) or as the
// complex array itself (numpy's complex64): read as cat(real, imaginary), a cos|sin cache.
void complexPairRows(const std::vector<double> &llama, const QStringList &llamaFlags, const QStringList &theta500k)
{
    const QString pairs = u"complex pairs, read as cat(real, imaginary)"_s;
    QTest::newRow("freqs_cis [96, 64, 2], Llama 3.1")
        << npy({96, 64, 2}, freqsCis(96, llama)) << QStringList() << u"correct"_s << QString() << pairs;
    QTest::newRow("freqs_cis [1, 96, 1, 64, 2], Llama 3.1 declared")
        << npy({1, 96, 1, 64, 2}, freqsCis(96, llama)) << llamaFlags << u"correct"_s << QString() << pairs;
    QTest::newRow("freqs_cis [96, 64, 2], llama3 scaling dropped")
        << npy({96, 64, 2}, freqsCis(96, defaultInv(500000.0, 128))) << llamaFlags << u"mistake"_s
        << u"rope-type"_s << pairs;
    QTest::newRow("freqs_cis complex64 [96, 64], Llama 3.1 declared")
        << npy({96, 64}, freqsCis(96, llama), "<c8") << llamaFlags << u"correct"_s << QString() << pairs;
    QTest::newRow("freqs_cis complex64 [96, 64], theta 10000 for 500000")
        << npy({96, 64}, freqsCis(96, defaultInv(10000.0, 128)), "<c8") << theta500k << u"mistake"_s
        << u"rope-theta"_s << pairs;
    // The first rows of a freqs_cis cut at position 40 (freqs_cis[40:96]): still (cos, sin) pairs, a
    // window at positions 40..95 said, not judged; against positions declared from 0, position-offset.
    std::vector<float> cut = freqsCis(96, llama);
    cut.erase(cut.begin(), cut.begin() + 40 * 64 * 2);
    QTest::newRow("freqs_cis [56, 64, 2] from position 40, Llama 3.1 declared")
        << npy({56, 64, 2}, cut) << llamaFlags << u"correct"_s << QString() << u"positions 40..95"_s;
    QTest::newRow("freqs_cis [56, 64, 2] from position 40, Llama 3.1 declared, positions 0:56")
        << npy({56, 64, 2}, cut) << llamaFlags + QStringList {u"--positions"_s, u"0:56"_s} << u"mistake"_s
        << u"position-offset"_s << pairs;
    // Complex arrays with leading unit or batch dimensions honour the complex flag as [L, K] does.
    QTest::newRow("freqs_cis complex64 [1, 96, 64], Llama 3.1 declared")
        << npy({1, 96, 64}, freqsCis(96, llama), "<c8") << llamaFlags << u"correct"_s << QString() << pairs;
    // An interleaved sinusoid stacked as (sin, cos) pairs, [L, d/2, 2]: its pairs have one modulus too,
    // and are read as the file lays them out, the paper's interleaved sinusoid.
    std::vector<float> sinCos;
    for (int p = 0; p < 96; ++p)
        for (int i = 0; i < 64; ++i) {
            const double angle = p * std::pow(10000.0, -2.0 * i / 128.0);
            sinCos.push_back(float(std::sin(angle)));
            sinCos.push_back(float(std::cos(angle)));
        }
    QTest::newRow("sinusoid [96, 64, 2] of (sin, cos) pairs")
        << npy({96, 64, 2}, sinCos) << QStringList() << u"correct"_s << QString()
        << u"(sin, cos) of one angle, an interleaved sinusoid, read as the file lays them out"_s;
    // Pairs of no one modulus are no complex table: a stack of 5 tables of 7 x 2, read as such.
    std::vector<float> notRotations;
    for (int i = 0; i < 70; ++i)
        notRotations.push_back(float(0.25 + 0.5 * ((i * 7) % 11) / 11.0));
    QTest::newRow("[5, 7, 2] of no one modulus")
        << npy({5, 7, 2}, notRotations) << QStringList() << u"unknown"_s << QString() << u", 35 x 2,"_s;
}

} // namespace

// A row of shapes(): the file, the flags, the verdict, its mistake's name and a word said.
static void addShapeColumns()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("verdict");
    QTest::addColumn<QString>("mistake");
    QTest::addColumn<QString>("said");
}

class TestCliShapes : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void shapes_data()
    {
        addShapeColumns();
        const std::vector<double> llama = llama3Inv(500000.0, 128, 8.0, 1.0, 4.0, 8192.0);
        const QStringList llamaFlags {u"--expect"_s,      u"rope"_s, u"--rope-theta"_s,       u"500000"_s,
                                      u"--head-dim"_s,    u"128"_s,  u"--rope-type"_s,        u"llama3"_s,
                                      u"--rope-factor"_s, u"8"_s,    u"--original-max-len"_s, u"8192"_s};
        QTest::newRow("inv_freq, Llama 3.1")
            << npy({64}, asFloat(llama)) << QStringList() << u"correct"_s << QString() << u"Llama 3.1"_s;
        QTest::newRow("inv_freq, Llama 3.1 declared")
            << npy({64}, asFloat(llama)) << llamaFlags << u"correct"_s << QString() << u"llama3"_s;
        QTest::newRow("inv_freq, llama3 scaling dropped") << npy({64}, asFloat(defaultInv(500000.0, 128))) << llamaFlags
                                                          << u"mistake"_s << u"rope-type"_s << u"no scaling"_s;
        QTest::newRow("inv_freq, theta 10000 for 500000")
            << npy({64}, asFloat(defaultInv(10000.0, 128)))
            << QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"500000"_s, u"--head-dim"_s, u"128"_s}
            << u"mistake"_s << u"rope-theta"_s << u"rope_theta 10000 where"_s;
        std::vector<double> gemma = defaultInv(1e6, 256);
        for (double &w : gemma)
            w /= 8.0;
        QTest::newRow("inv_freq, linear 8 (Gemma 3)")
            << npy({128}, asFloat(gemma)) << QStringList() << u"correct"_s << QString() << u"Gemma 3"_s;
        QTest::newRow("inv_freq, linear 8 declared 4")
            << npy({128}, asFloat(gemma))
            << QStringList {u"--expect"_s, u"rope"_s,        u"--rope-theta"_s, u"1000000"_s,       u"--head-dim"_s,
                            u"256"_s,      u"--rope-type"_s, u"linear"_s,       u"--rope-factor"_s, u"4"_s}
            << u"mistake"_s << u"rope-factor"_s << u"factor 8 where 4"_s;
        QTest::newRow("inv_freq, theta 12345")
            << npy({32}, asFloat(defaultInv(12345.0, 64))) << QStringList() << u"variant"_s << QString() << u"12345"_s;
        std::vector<float> rounded = asFloat(defaultInv(1e6, 128));
        for (float &w : rounded)
            w = bf16(w);
        QTest::newRow("inv_freq rounded to bfloat16 (sglang-jax#1472)")
            << npy({64}, rounded)
            << QStringList {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"1000000"_s, u"--head-dim"_s, u"128"_s}
            << u"mistake"_s << u"half-precision-angles"_s << u"bfloat16"_s;
        std::vector<double> fromZero;
        for (int h = 0; h < 32; ++h)
            fromZero.push_back(std::pow(2.0, -8.0 * h / 32.0));
        QTest::newRow("slopes, exponent from 0 (aprender#2143)")
            << npy({32}, asFloat(fromZero)) << QStringList() << u"mistake"_s << u"alibi-slopes"_s << u"starting at 0"_s;
        QTest::newRow("slopes, 12 heads")
            << npy({12}, asFloat(alibiref::slopes(12))) << QStringList() << u"correct"_s << QString() << u"12 heads"_s;
        QTest::newRow("slopes, [1, 12, 1, 1]") << npy({1, 12, 1, 1}, asFloat(alibiref::slopes(12))) << QStringList()
                                               << u"correct"_s << QString() << u"12 heads"_s;
        std::vector<double> naive;
        for (int k = 1; k <= 12; ++k)
            naive.push_back(std::pow(2.0, -8.0 * k / 12.0));
        QTest::newRow("slopes, 2^(-8k/12)")
            << npy({12}, asFloat(naive)) << QStringList() << u"mistake"_s << u"alibi-slopes"_s << u"power of two"_s;
        std::vector<double> swapped = alibiref::slopes(16);
        std::swap(swapped[2], swapped[5]);
        QTest::newRow("slopes, heads 3 and 6 exchanged")
            << npy({16}, asFloat(swapped)) << QStringList() << u"mistake"_s << u"slopes-head-order"_s << u"head 3"_s;
        const std::vector<double> six = alibiref::slopes(6);
        QTest::newRow("bias [6, 24, 24]")
            << npy({6, 24, 24}, alibiHeads(six, 24)) << QStringList() << u"correct"_s << QString() << u"6 heads"_s;
        QTest::newRow("bias [2, 6, 24, 24] declared") << npy({2, 6, 24, 24}, repeated(alibiHeads(six, 24), 2))
                                                      << QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"6"_s}
                                                      << u"correct"_s << QString() << u"6 heads"_s;
        std::vector<double> sixSwapped = six;
        std::swap(sixSwapped[0], sixSwapped[4]);
        QTest::newRow("bias [1, 6, 24, 24], heads 1 and 5 exchanged")
            << npy({1, 6, 24, 24}, alibiHeads(sixSwapped, 24)) << QStringList() << u"mistake"_s
            << u"slopes-head-order"_s << u"head 1 holds the slope of head 5"_s;
        std::vector<float> bloom, mpt;
        for (const double m : alibiref::slopes(8)) {
            for (int j = 0; j < 40; ++j) {
                bloom.push_back(float(m * j));
                mpt.push_back(float(m * (j - 39)));
            }
        }
        QTest::newRow("BLOOM [2 x 8, 1, 40]")
            << npy({16, 1, 40}, repeated(bloom, 2)) << QStringList() << u"correct"_s << QString() << u"BLOOM"_s;
        QTest::newRow("MPT [1, 8, 1, 40]")
            << npy({1, 8, 1, 40}, mpt) << QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s} << u"correct"_s
            << QString() << u"MPT"_s;
        // T5's position_bias, read per bucket: learned, never correct; a cell off its bucket named.
        QTest::newRow("T5 position_bias [1, 12, 64, 64]") << npy({1, 12, 64, 64}, t5Bias(12, 64, true)) << QStringList()
                                                          << u"learned"_s << QString() << u"constant on the buckets"_s;
        QTest::newRow("T5 decoder's position_bias, causal")
            << npy({1, 4, 48, 48}, t5Bias(4, 48, false)) << QStringList() << u"learned"_s << QString() << u"causal"_s;
        std::vector<float> broken = t5Bias(12, 64, true);
        broken[std::size_t(5 * 64 * 64 + 40 * 64 + 7)] += 0.5f;
        QTest::newRow("T5 position_bias, one cell off its bucket")
            << npy({1, 12, 64, 64}, broken) << QStringList() << u"mistake"_s << u"t5-bucket-value-broken"_s
            << u"head 5, query 40, key 7"_s;
        // The decoder's map of i - j: the keys after the query bucketed, those before all in bucket 0.
        QTest::newRow("T5 decoder's position_bias of i - j")
            << npy({4, 48, 48}, t5Bias(4, 48, false, true)) << QStringList() << u"mistake"_s
            << u"relative-position-reversed"_s << u"mirrored"_s;
        QTest::newRow("T5 position_bias, causal declared")
            << npy({1, 4, 48, 48}, t5Bias(4, 48, true)) << QStringList {u"--expect"_s, u"t5"_s, u"--t5-causal"_s}
            << u"mistake"_s << u"t5-causal"_s << u"bidirectional"_s;
        const std::vector<float> cos = cosTable(64, 64, 10000.0, 0);
        // candle's cos of the frequencies, [L, rotary_dim / 2]: the half layout's first half.
        std::vector<float> narrow;
        for (int p = 0; p < 64; ++p)
            narrow.insert(narrow.end(), cos.begin() + p * 64, cos.begin() + p * 64 + 32);
        const QStringList rope64 {u"--expect"_s, u"rope-cos"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s};
        QTest::newRow("cos cache [64, 32] of head_dim 64")
            << npy({64, 32}, narrow) << rope64 + QStringList {u"10000"_s} << u"correct"_s << QString()
            << u"half the declared table's"_s;
        QTest::newRow("cos cache [64, 32], theta 10000 for 500000")
            << npy({64, 32}, narrow) << rope64 + QStringList {u"500000"_s} << u"mistake"_s << u"rope-theta"_s
            << u"rope_theta 10000 where the declaration gives 500000"_s;
        QTest::newRow("cos cache [3, 64, 64]")
            << npy({3, 64, 64}, repeated(cos, 3)) << QStringList() << u"correct"_s << QString() << u"3 slices"_s;
        std::vector<float> shifted = cos;
        const std::vector<float> later = cosTable(64, 64, 10000.0, 5);
        shifted.insert(shifted.end(), later.begin(), later.end());
        for (const QStringList &at : {QStringList(), QStringList {u"--positions"_s, u"0:64"_s}}) // a window said
            QTest::addRow("cos cache [2, 64, 64], batch 1 from position 5%s", at.isEmpty() ? "" : ", positions 0:64")
                << npy({2, 64, 64}, shifted) << at << (at.isEmpty() ? u"correct"_s : u"mistake"_s)
                << (at.isEmpty() ? QString() : u"position-offset"_s) << (at.isEmpty() ? u"2 slices"_s : u"slice [1]"_s);
        // vLLM's cos|sin cache, [L, rotary_dim]: each half read as the HF table it stands for.
        const QStringList theta500k {u"--expect"_s, u"rope"_s,       u"--rope-theta"_s,
                                     u"500000"_s,   u"--head-dim"_s, u"128"_s};
        QTest::newRow("cos|sin cache, Llama 3.1") << npy({96, 128}, cosSinCache(96, llama)) << QStringList()
                                                  << u"correct"_s << QString() << u"cos|sin cache"_s;
        QTest::newRow("cos|sin cache, Llama 3.1 declared")
            << npy({96, 128}, cosSinCache(96, llama)) << llamaFlags << u"correct"_s << QString() << u"cos|sin cache"_s;
        QTest::newRow("cos|sin cache, llama3 scaling dropped")
            << npy({96, 128}, cosSinCache(96, defaultInv(500000.0, 128))) << llamaFlags << u"mistake"_s
            << u"rope-type"_s << u"the cos half (columns 0..63)"_s;
        QTest::newRow("cos|sin cache, theta 10000 for 500000")
            << npy({96, 128}, cosSinCache(96, defaultInv(10000.0, 128))) << theta500k << u"mistake"_s << u"rope-theta"_s
            << u"the cos half (columns 0..63)"_s;
        complexPairRows(llama, llamaFlags, theta500k);
        batchedCosSinRows(llama, llamaFlags);
        QTest::newRow("cos|sin cache, theta 10000") << npy({96, 128}, cosSinCache(96, defaultInv(10000.0, 128)))
                                                    << QStringList() << u"correct"_s << QString() << u"cos|sin cache"_s;
        // rotary-embedding-torch#11: a second chunk at offset 48 given the cached rows of 0..47.
        // Undeclared, rows that restart at position 0 are also two packed documents' (Megatron's
        // reset_position_ids): unknown, the restart said; declared, the mistake.
        std::vector<int> twice(96);
        for (int r = 0; r < 96; ++r)
            twice[std::size_t(r)] = r % 48;
        const std::vector<float> offsetLost = cosSinCache(96, defaultInv(10000.0, 64), twice);
        const QStringList theta10k {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"64"_s};
        QTest::newRow("cos|sin cache, rows 48..95 at 0..47")
            << npy({96, 64}, offsetLost) << QStringList() << u"unknown"_s << QString()
            << u"rows 48.. restart at position 0"_s;
        QTest::newRow("cos|sin cache, rows 48..95 at 0..47, declared")
            << npy({96, 64}, offsetLost) << theta10k << u"mistake"_s << u"positions-out-of-order"_s
            << u"rows 48..95 hold positions 0..47"_s;
    }
    void shapes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        QFETCH(QString, said);
        const QString file = m_dir.filePath(u"t.npy"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        const QString shown = run.out + run.err;
        QCOMPARE(o[u"verdict"_s].toString(), verdict);
        QVERIFY2(mistake.isEmpty() || o[u"mistakes"_s].toArray().contains(mistake), qPrintable(shown));
        QVERIFY2(!mistake.isEmpty() || o[u"mistakes"_s].toArray().isEmpty(), qPrintable(shown));
        const CliRun::Run text = CliRun::posenc(QStringList {u"check"_s, file} + flags);
        QVERIFY2(text.out.contains(said), qPrintable(text.out));
    }

    // LoFTR's [C, H, W] sine map (zju3dv/LoFTR position_encoding.py, PositionEncodingSine), read whole:
    // temp_bug_fix=True correct; the floored div_term of temp_bug_fix=False, a published form (the
    // first released weights'), a variant undeclared and div-term-floored against the declared family.
    void loftrMaps_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QJsonArray>("mistakes");
        QTest::addColumn<QString>("said");
        const QStringList declared {u"--expect"_s, u"sincos-2d"_s};
        QTest::newRow("[C, H, W], temp_bug_fix=True") << npy({64, 12, 20}, loftr(64, 12, 20, false)) << QStringList()
                                                      << u"correct"_s << QJsonArray() << u"PositionEncodingSine"_s;
        QTest::newRow("[1, C, H, W], temp_bug_fix=False")
            << npy({1, 64, 12, 20}, loftr(64, 12, 20, true)) << QStringList() << u"variant"_s << QJsonArray()
            << u"temp_bug_fix=False"_s;
        QTest::newRow("[1, C, H, W], temp_bug_fix=True declared")
            << npy({1, 64, 20, 12}, loftr(64, 20, 12, false)) << declared << u"correct"_s << QJsonArray()
            << u"temp_bug_fix=True"_s;
        QTest::newRow("[C, H, W], temp_bug_fix=False against the declared fix")
            << npy({32, 9, 30}, loftr(32, 9, 30, true)) << declared << u"mistake"_s
            << QJsonArray {u"div-term-floored"_s} << u"w_k = exp(-2k)"_s;
        // DETR's PositionEmbeddingSine [B, C, H, W] (facebookresearch/detr position_encoding.py); a map
        // whose channels each follow one axis but no published form's cells (scale pi): both readings.
        using detrref::Normalize;
        QTest::newRow("DETR [1, C, H, W], normalize=True") << npy({1, 64, 6, 8}, detrref::map(64, 6, 8, Normalize::Detr))
                                                           << QStringList() << u"correct"_s << QJsonArray() << u"DETR"_s;
        QTest::newRow("Deformable DETR [C, H, W]") << npy({64, 6, 8}, detrref::map(64, 6, 8, Normalize::Deformable))
                                                   << QStringList() << u"correct"_s << QJsonArray() << u"Deformable"_s;
        QTest::newRow("DETR, x first, declared") << npy({1, 64, 6, 8}, detrref::map(64, 6, 8, Normalize::Detr, 1e4, true))
                                                 << declared + QStringList {u"--map-form"_s, u"detr-normalized"_s}
                                                 << u"mistake"_s << QJsonArray {u"map-axes-swapped"_s} << u"column"_s;
        // Temperature 20 (DAB-DETR's and DINO's PositionEmbeddingSineHW): correct with --expect sincos-2d
        // alone, a mistake only against the form --map-form names. A padded batch: its second image valid
        // on 4 x 5 cells of 6 x 8 (PositionEmbeddingSine with NestedTensor's mask), its sizes said.
        const QByteArray warm = npy({1, 64, 6, 8}, detrref::map(64, 6, 8, Normalize::Detr, 20.0));
        QTest::newRow("temperature 20, declared family") << warm << declared << u"correct"_s << QJsonArray() << u"DAB-DETR"_s;
        std::vector<float> batch = detrref::map(64, 6, 8, Normalize::Detr), second = detrref::map(64, 6, 8, Normalize::Detr, 1e4, false, 4, 5);
        batch.insert(batch.end(), second.begin(), second.end());
        QTest::newRow("padded batch") << npy({2, 64, 6, 8}, batch) << QStringList() << u"correct"_s << QJsonArray() << u"image 1 4 x 5"_s;
        QTest::newRow("padded batch, declared") << npy({2, 64, 6, 8}, batch) << declared + QStringList {u"--map-form"_s, u"detr-normalized"_s} << u"correct"_s << QJsonArray() << u"image 1 4 x 5"_s;
        QTest::newRow("temperature 20, declared form") << warm << declared + QStringList {u"--map-form"_s, u"detr-normalized"_s}
                                                       << u"mistake"_s << QJsonArray {u"map-temperature"_s} << u"temperature"_s;
        std::vector<float> halfScale = detrref::map(64, 6, 8, Normalize::None);
        for (float &v : halfScale)
            v *= 0.5f;
        QTest::newRow("a channel-first map of no form") << npy({64, 6, 8}, halfScale) << QStringList() << u"unknown"_s
                                                        << QJsonArray() << u"reads two ways"_s;
    }
    void loftrMaps()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QJsonArray, mistakes);
        QFETCH(QString, said);
        const QString file = m_dir.filePath(u"loftr.npy"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s} + flags);
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(o[u"verdict"_s].toString(), verdict);
        QCOMPARE(o[u"mistakes"_s].toArray(), mistakes);
        QVERIFY2(o[u"diagnosis"_s].toString().contains(said), qPrintable(run.out));
    }

    // Complex arrays of leading unit or batch dimensions are complex however many rows they have:
    // [2, 96, 64] a stack of two cos|sin caches of 96 x 128, [1, 64] one row of them; the file's shape
    // and its rows said as the file has them.
    void complexArraysHonourTheFlag()
    {
        std::vector<double> inv;
        for (int i = 0; i < 64; ++i)
            inv.push_back(std::pow(10000.0, -2.0 * i / 128.0));
        const QString file = m_dir.filePath(u"c.npy"_s);
        const auto checked = [&](const QByteArray &bytes) {
            QFile f(file);
            f.open(QIODevice::WriteOnly | QIODevice::Truncate);
            f.write(bytes);
            f.close();
            return CliRun::posenc({u"check"_s, file});
        };
        const CliRun::Run batch = checked(npy({2, 96, 64}, repeated(freqsCis(96, inv), 2), "<c8"));
        QVERIFY2(batch.exitCode != 2, qPrintable(batch.out + batch.err));
        QVERIFY2(batch.out.contains(u"a complex array of shape (2, 96, 64): 192 rows of 64 complex pairs, read as "
                                    "cat(real, imaginary)"_s),
                 qPrintable(batch.out));
        QVERIFY2(batch.out.contains(u"2 slices of 96 x 128"_s), qPrintable(batch.out));
        const CliRun::Run row = checked(npy({1, 64}, freqsCis(1, inv), "<c8"));
        QVERIFY2(row.exitCode != 2, qPrintable(row.out + row.err));
        QVERIFY2(row.out.contains(u"a complex array of shape (1, 64): 1 row of 64 complex pairs"_s), qPrintable(row.out));
    }

    // llama.cpp#20031: the heads past the power of two below 40 never written (left 0 here), named
    // together against --expect alibi --heads 40.
    void unwrittenHeadsAreNamedTogether()
    {
        std::vector<double> slopes = alibiref::slopes(40);
        std::fill(slopes.begin() + 32, slopes.end(), 0.0);
        const QString file = m_dir.filePath(u"unwritten.npy"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(npy({1, 40, 1, 1}, asFloat(slopes)));
        f.close();
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, file, u"--expect"_s, u"alibi"_s, u"--heads"_s, u"40"_s, u"--json"_s});
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"alibi-slopes"_s});
        const QString words
            = u"heads 33..40 (8 of 40) hold 0 where get_slopes(40) gives %1"_s.arg(alibiref::slopes(40)[32], 0, 'g', 6);
        QVERIFY2(o[u"diagnosis"_s].toString().contains(words), qPrintable(run.out));
    }

    // An array no shape reads is refused with the shapes accepted, in one line, exit 2: a scalar, and
    // an array of five dimensions other than 1 (no reading is 5-D; it was cut into 2 x 3 slices).
    void refusedWithTheShapes_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("shape");
        QTest::newRow("scalar") << std::vector<std::int64_t> {};
        QTest::newRow("5-D") << std::vector<std::int64_t> {2, 2, 2, 1, 2, 3};
    }
    void refusedWithTheShapes()
    {
        QFETCH(std::vector<std::int64_t>, shape);
        std::int64_t n = 1;
        for (const std::int64_t d : shape)
            n *= d;
        const QString file = m_dir.filePath(u"refused.npy"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(npy(shape, std::vector<float>(std::size_t(n), 0.25f)));
        f.close();
        const CliRun::Run run = CliRun::posenc({u"check"_s, file});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"the shapes accepted"_s) && run.err.count(u'\n') == 1, qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliShapes)
} // namespace tst_clishapes
#include "tst_clishapes.moc"
