// posenc check on bias tables with a causal mask, and on biases taken the wrong way round (issue 56,
// the second held-out set: F8, F2, F3). A mask's fill is −inf or the dtype's lowest, as transformers'
// masks write it (src/transformers/modeling_attn_mask_utils.py, AttentionMaskConverter._make_causal_mask:
// torch.full(..., torch.finfo(dtype).min)): the undeclared and the declared check read both alike,
// each bias family's. ALiBi's bias with the offset taken as query − key (attention-gym#86's
// score_mod, bias * (q_idx − kv_idx)) is relative-position-reversed, one head or a stack, declared or
// not. A causal mask beside cells no table holds is set aside (unknown, exit 7), not refused as an
// unreadable file (exit 3). Every tensor is computed here in float64 from the references' formulas
// (get_slopes, tests/support/AlibiReference.h; NeMo's Sandwich and KERPLE's log kernel,
// tests/support/SandwichReference.h, KerpleReference.h).
#include "CliRun.h"
#include "support/AlibiReference.h"
#include "support/KerpleReference.h"
#include "support/SandwichReference.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

namespace tst_clicheckmasks {
using namespace Qt::StringLiterals;

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
// torch.finfo(dtype).min of bfloat16 and float16.
const double kBFloat16Lowest = double(std::bit_cast<float>(0xff7f0000u));
constexpr double kFloat16Lowest = -65504.0;

// A C-order little-endian .npy of `shape`: float32 ('<f4') or float16 ('<f2') cells.
QByteArray npy(const std::vector<std::int64_t> &shape, const std::vector<double> &values, bool half = false)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    const QByteArray text = (u"("_s + dims.join(u", "_s) + (shape.size() == 1 ? u","_s : u""_s) + u")"_s).toUtf8();
    QByteArray dict = "{'descr': '" + QByteArray(half ? "<f2" : "<f4") + "', 'fortran_order': False, 'shape': " + text
        + ", }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    for (const double v : values) {
        if (!half) {
            const float f = float(v);
            bytes.append(reinterpret_cast<const char *>(&f), sizeof f);
            continue;
        }
        // float16 to nearest, ties to even: sign, 5 exponent bits (bias 15), 10 of the significand;
        // the values here are 0, −inf or normal.
        std::uint16_t bits = v < 0.0 ? 0x8000u : 0u;
        const double a = std::fabs(v);
        if (std::isinf(a)) {
            bits |= 0x7c00u;
        } else if (a > 0.0) {
            const int e = std::ilogb(a);
            const double significand = std::nearbyint(std::ldexp(a, 10 - e)); // 1024..2048
            const int exponent = significand == 2048.0 ? e + 1 : e;
            const auto m = std::uint16_t(significand == 2048.0 ? 0 : int(significand) - 1024);
            bits |= std::uint16_t((exponent + 15) << 10) | m;
        }
        bytes.append(char(bits & 0xff)).append(char(bits >> 8));
    }
    return bytes;
}

// float16's rounding of a value, to nearest (normal values and 0).
double toHalf(double v)
{
    if (v == 0.0 || std::isinf(v))
        return v;
    const int e = std::ilogb(std::fabs(v));
    return std::ldexp(std::nearbyint(std::ldexp(v, 10 - e)), e - 10);
}

// bfloat16's rounding of a value (float32's first, to nearest even, as torch's .to(torch.bfloat16)).
double toBFloat16(double v)
{
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(float(v));
    if (std::isinf(v))
        return v;
    const std::uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
    return double(std::bit_cast<float>(rounded));
}

// `heads` square [L, L] slices, cell (i, j) of head h `bias(h, i, j)` for keys at or before the
// query and `fill` after it (a causal mask).
std::vector<double> causal(std::int64_t heads, std::int64_t length, double fill,
                           const std::function<double(std::int64_t, std::int64_t, std::int64_t)> &bias)
{
    std::vector<double> v;
    for (std::int64_t h = 1; h <= heads; ++h)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j)
                v.push_back(j > i ? fill : bias(h, i, j));
    return v;
}

// ALiBi's bias of head h of H: m_h (j − i) as get_slopes makes it, or with `reversed` m_h (i − j).
std::function<double(std::int64_t, std::int64_t, std::int64_t)> alibi(std::int64_t heads, bool reversed = false,
                                                                     std::int64_t firstHead = 1)
{
    const std::vector<double> m = alibiref::slopes(heads);
    return [m, reversed, firstHead](std::int64_t h, std::int64_t i, std::int64_t j) {
        const double slope = m[std::size_t(h + firstHead - 2)];
        return reversed ? slope * double(i - j) : slope * double(j - i);
    };
}

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString shown;
};

} // namespace

class TestCliCheckMasks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const QByteArray &bytes, const QStringList &flags)
    {
        const QString file = m_dir.filePath(u"t.npy"_s);
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
            return {};
        f.close();
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, file, u"--json"_s, u"--quiet"_s} + flags);
        return {run.exitCode, QJsonDocument::fromJson(run.out.toUtf8()).object(), run.out + run.err};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A correct bias masked with −inf or a dtype's lowest is correct, undeclared and declared alike.
    void maskFillsAreMasksAlike_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("declared");
        const QStringList alibi1 {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s, u"--head"_s, u"1"_s};
        const QStringList alibi16 {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s};
        for (const auto &[name, fill] : {std::pair {"-inf", kMinusInf}, std::pair {"float32's lowest", -double(FLT_MAX)},
                                         std::pair {"bfloat16's lowest", kBFloat16Lowest}}) {
            QTest::addRow("ALiBi head 1 of 16, %s", name) << npy({128, 128}, causal(1, 128, fill, alibi(16))) << alibi1;
            QTest::addRow("ALiBi [16, 128, 128], %s", name)
                << npy({16, 128, 128}, causal(16, 128, fill, alibi(16))) << alibi16;
        }
        // A float16 table masked with float16's lowest (an fp16 model's finfo(torch.float16).min).
        const auto alibiHalf = [m = alibi(16)](std::int64_t h, std::int64_t i, std::int64_t j) {
            return toHalf(m(h, i, j));
        };
        QTest::newRow("ALiBi head 1 of 16, float16, float16's lowest")
            << npy({128, 128}, causal(1, 128, kFloat16Lowest, alibiHalf), true) << alibi1;
        QTest::newRow("Sandwich head 2 of 8, float32's lowest")
            << npy({96, 96}, causal(1, 96, -double(FLT_MAX),
                                    [](std::int64_t, std::int64_t i, std::int64_t j) {
                                        return sandwichref::bias(8, 2, 64, i, j, false);
                                    }))
            << QStringList {u"--expect"_s,         u"sandwich"_s, u"--sandwich-heads"_s,    u"8"_s,
                            u"--sandwich-head"_s,  u"2"_s,        u"--sandwich-head-dim"_s, u"64"_s};
        QTest::newRow("KERPLE r1 2, r2 0.5, -inf")
            << npy({96, 96}, causal(1, 96, kMinusInf,
                                    [](std::int64_t, std::int64_t i, std::int64_t j) {
                                        return kerpleref::bias(2.0, 0.5, i, j, kerpleref::Dtype::Float32);
                                    }))
            << QStringList {u"--expect"_s, u"kerple"_s, u"--kerple-heads"_s, u"1"_s, u"--kerple-r1"_s, u"2"_s,
                            u"--kerple-r2"_s, u"0.5"_s};
    }
    void maskFillsAreMasksAlike()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, declared);
        for (const QStringList &flags : {QStringList(), declared}) {
            const Checked c = check(bytes, flags);
            QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s,
                     qPrintable(flags.join(u' ') + u": "_s + c.shown));
        }
    }

    // A value after the query that is no mask's fill stays a deviation, undeclared and declared
    // alike: −65504 in a float32 table (float16's lowest, but the table's values are no float16's),
    // and −1e4.
    void otherFillsDeviate_data()
    {
        QTest::addColumn<double>("fill");
        QTest::newRow("float16's lowest in a float32 table") << kFloat16Lowest;
        QTest::newRow("-1e4") << -1e4;
    }
    void otherFillsDeviate()
    {
        QFETCH(double, fill);
        // Head 9 of 12, slope 2^-0.5 (get_slopes' interleave): no float16 values.
        const QByteArray bytes = npy({64, 64}, causal(1, 64, fill, alibi(12, false, 9)));
        for (const QStringList &flags :
             {QStringList(), QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--head"_s, u"9"_s}}) {
            const Checked c = check(bytes, flags);
            QVERIFY2(c.exit == 1 && c.json[u"verdict"_s].toString() == u"mistake"_s,
                     qPrintable(flags.join(u' ') + u": "_s + c.shown));
        }
    }

    // The one rule by the table's value precision (check/MaskFill.h): −65504 in a float32 file whose
    // every other value float16 holds (head 4 of 8, slope 1/16: m (j − i) exact in float16) is an fp16
    // pipeline's mask, undeclared and declared alike; −inf beside float16 values keeps them float16's.
    void float16LowestWhereTheValuesAreFloat16s()
    {
        const auto half
            = [m = alibi(12, false, 9)](std::int64_t h, std::int64_t i, std::int64_t j) { return toHalf(m(h, i, j)); };
        const std::vector<std::pair<QByteArray, QStringList>> cases {
            {npy({64, 64}, causal(1, 64, kFloat16Lowest, alibi(8, false, 4))),
             {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--head"_s, u"4"_s}},
            {npy({64, 64}, causal(1, 64, kMinusInf, half)),
             {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--head"_s, u"9"_s}},
            {npy({64, 64}, causal(1, 64, kFloat16Lowest, half)),
             {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--head"_s, u"9"_s}}};
        for (const auto &[bytes, declared] : cases) {
            for (const QStringList &flags : {QStringList(), declared}) {
                const Checked c = check(bytes, flags);
                QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s,
                         qPrintable(flags.join(u' ') + u": "_s + c.shown));
            }
        }
    }

    // ALiBi's bias as m (i − j): relative-position-reversed, one head or the stack, declared or not,
    // masked with −inf or float32's lowest.
    void reversedAlibiIsNamed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("declared");
        QTest::addColumn<QString>("said");
        for (const auto &[name, fill] :
             {std::pair {"-inf", kMinusInf}, std::pair {"float32's lowest", -double(FLT_MAX)}}) {
            QTest::addRow("[16, 128, 128], %s", name)
                << npy({16, 128, 128}, causal(16, 128, fill, alibi(16, true)))
                << QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s} << u"query − key"_s;
            QTest::addRow("head 1 of 16, %s", name)
                << npy({128, 128}, causal(1, 128, fill, alibi(16, true)))
                << QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s, u"--head"_s, u"1"_s}
                << u"+m (i − j) = 0.707107 (i − j)"_s;
        }
        // Head 2 of 16 (slope 1/2, head 1 of 8 read undeclared): declared, named against head 2 of 16.
        QTest::newRow("head 2 of 16") << npy({100, 100}, causal(1, 100, kMinusInf, alibi(16, true, 2)))
                                      << QStringList {u"--expect"_s, u"alibi"_s,  u"--heads"_s,
                                                      u"16"_s,       u"--head"_s, u"2"_s}
                                      << u"+m (i − j) = 0.5 (i − j)"_s;
        // BLOOM's key biases [H, 1, L], slope × key position, with the sign turned.
        std::vector<double> keys;
        const std::vector<double> m = alibiref::slopes(16);
        for (std::int64_t h = 0; h < 16; ++h)
            for (std::int64_t j = 0; j < 128; ++j)
                keys.push_back(-m[std::size_t(h)] * double(j));
        QTest::newRow("BLOOM's key biases [16, 1, 128]")
            << npy({16, 1, 128}, keys) << QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s}
            << u"other sign"_s;
    }
    void reversedAlibiIsNamed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, declared);
        QFETCH(QString, said);
        for (const QStringList &flags : {QStringList(), declared}) {
            const Checked c = check(bytes, flags);
            const QString context = flags.join(u' ') + u": "_s + c.shown;
            QVERIFY2(c.exit == 1, qPrintable(context));
            QCOMPARE(c.json[u"mistakes"_s].toArray(), QJsonArray {u"relative-position-reversed"_s});
            QVERIFY2(c.json[u"diagnosis"_s].toString().contains(said), qPrintable(context));
            // A declared head is named as declared.
            if (const qsizetype head = flags.indexOf(u"--head"_s); head >= 0)
                QVERIFY2(c.json[u"diagnosis"_s].toString().contains(
                             u"head %1 of %2"_s.arg(flags[head + 1], flags[flags.indexOf(u"--heads"_s) + 1])),
                         qPrintable(context));
        }
    }

    // Biases of a half-precision pipeline (the second cold review of these masks: F1, F2, F5):
    // BLOOM's key biases in float16 (build_alibi_tensor: float32's slope × key position, then
    // .to(dtype)) are get_slopes' heads undeclared and declared, not a one-head table's mistake (a
    // stack of bfloat16 values kept in float32: bfloat16ValuesInFloat32); a stack of +m|i − j|
    // declared symmetric is a mistake but not relative-position-reversed: a two-sided
    // bias has no direction to reverse.
    void halfPrecisionBiasesAreNoMistake()
    {
        const std::vector<double> m = alibiref::slopes(16);
        std::vector<double> keys;
        for (std::int64_t h = 0; h < 16; ++h)
            for (std::int64_t j = 0; j < 128; ++j)
                keys.push_back(toHalf(double(float(m[std::size_t(h)]) * float(j))));
        for (const QStringList &flags :
             {QStringList(), QStringList {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s}}) {
            const Checked c = check(npy({16, 1, 128}, keys, true), flags);
            QVERIFY2(c.exit == 0, qPrintable(c.shown));
            QCOMPARE(c.json[u"verdict"_s].toString(), u"correct"_s);
        }
        std::vector<double> symmetric;
        const std::vector<double> m8 = alibiref::slopes(8);
        for (std::int64_t h = 0; h < 8; ++h)
            for (std::int64_t i = 0; i < 64; ++i)
                for (std::int64_t j = 0; j < 64; ++j)
                    symmetric.push_back(m8[std::size_t(h)] * double(std::llabs(i - j)));
        const Checked sym = check(npy({8, 64, 64}, symmetric),
                                  {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s, u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(sym.exit == 1, qPrintable(sym.shown));
        QVERIFY2(!sym.json[u"mistakes"_s].toArray().contains(u"relative-position-reversed"_s), qPrintable(sym.shown));
    }

    // ALiBi's heads of a bfloat16 pipeline kept in float32 (numpy has no bfloat16: .float().numpy()),
    // each cell m (j − i) rounded to bfloat16 and read at its values' own precision, as every table
    // is (they were `unknown` undeclared and one head a false mistake declared: "2016 cells deviate
    // ... off by 0.116", half a bfloat16 unit at 43): the stack and its head 9 (slope 2^-0.5)
    // correct, undeclared and declared, masked with −inf or bfloat16's lowest.
    void bfloat16ValuesInFloat32_data()
    {
        QTest::addColumn<double>("fill");
        QTest::newRow("-inf") << kMinusInf;
        QTest::newRow("bfloat16's lowest") << kBFloat16Lowest;
    }
    void bfloat16ValuesInFloat32()
    {
        QFETCH(double, fill);
        const auto rounded
            = [m = alibi(12)](std::int64_t h, std::int64_t i, std::int64_t j) { return toBFloat16(m(h, i, j)); };
        const auto head9 = [m = alibi(12, false, 9)](std::int64_t h, std::int64_t i, std::int64_t j) {
            return toBFloat16(m(h, i, j));
        };
        const std::vector<std::pair<QByteArray, QStringList>> cases {
            {npy({12, 64, 64}, causal(12, 64, fill, rounded)), {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s}},
            {npy({64, 64}, causal(1, 64, fill, head9)),
             {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--head"_s, u"9"_s}}};
        for (const auto &[bytes, declared] : cases) {
            for (const QStringList &flags : {QStringList(), declared}) {
                const Checked c = check(bytes, flags);
                QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s,
                         qPrintable(flags.join(u' ') + u": "_s + c.shown));
            }
        }
    }

    // NeMo's Sandwich heads as a stack [1, H, L, L] (SandwichRelativePositionEmbedding.forward, one
    // map per head, bias_scales arange(1, H + 1)), declared with their heads: slice h is head h + 1
    // of H, correct (every slice was checked as head 1: "sandwich-heads 6 where the declaration
    // gives 12"); declared with other heads, a mistake.
    void declaredSandwichStack_data()
    {
        QTest::addColumn<double>("fill");
        QTest::newRow("torch.tril's 0") << 0.0;
        QTest::newRow("-inf") << kMinusInf;
        QTest::newRow("float32's lowest") << -double(FLT_MAX);
    }
    void declaredSandwichStack()
    {
        QFETCH(double, fill);
        const QByteArray bytes
            = npy({1, 12, 64, 64}, causal(12, 64, fill, [](std::int64_t h, std::int64_t i, std::int64_t j) {
                      return sandwichref::bias(12, h, 64, i, j, false);
                  }));
        const auto declared = [](const QString &heads) {
            return QStringList {u"--expect"_s, u"sandwich"_s, u"--sandwich-heads"_s, heads, u"--sandwich-head-dim"_s,
                                u"64"_s};
        };
        for (const QStringList &flags : {QStringList(), declared(u"12"_s)}) {
            const Checked c = check(bytes, flags);
            QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s,
                     qPrintable(flags.join(u' ') + u": "_s + c.shown));
        }
        const Checked other = check(bytes, declared(u"16"_s));
        QVERIFY2(other.exit == 1 && other.json[u"verdict"_s].toString() == u"mistake"_s, qPrintable(other.shown));
    }

    // A mask's region that is no causal mask is set aside, never refused as an unreadable file (exit
    // 3 is for what cannot be read). A left padding of 3 tokens (transformers'
    // _prepare_4d_causal_attention_mask with attention_mask 0 0 0 1 1 ...: the padding's keys masked in
    // every row, its queries' rows whole): the rest read as the causal table it is, correct one head
    // or a stack, undeclared and declared; its slopes 1 % off still a mistake.
    void leftPaddingIsSetAside_data()
    {
        QTest::addColumn<double>("fill");
        QTest::newRow("-inf") << kMinusInf;
        QTest::newRow("float32's lowest") << -double(FLT_MAX);
    }
    void leftPaddingIsSetAside()
    {
        QFETCH(double, fill);
        // The first `count` heads of `heads`, their slopes times `scale`.
        const auto padded = [fill](std::int64_t heads, std::int64_t count, double scale) {
            std::vector<double> v;
            const std::vector<double> m = alibiref::slopes(heads);
            for (std::int64_t h = 0; h < count; ++h)
                for (std::int64_t i = 0; i < 64; ++i)
                    for (std::int64_t j = 0; j < 64; ++j)
                        v.push_back(i < 3 || j < 3 || j > i ? fill : scale * m[std::size_t(h)] * double(j - i));
            return v;
        };
        const QStringList stack {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s};
        const QStringList head {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s, u"--head"_s, u"1"_s};
        for (const QStringList &flags : {QStringList(), head}) {
            const Checked c = check(npy({64, 64}, padded(16, 1, 1.0)), flags);
            QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s,
                     qPrintable(flags.join(u' ') + u": "_s + c.shown));
            // The padding said in the report's notes (the text's).
            const CliRun::Run text = CliRun::posenc(QStringList {u"check"_s, m_dir.filePath(u"t.npy"_s)} + flags);
            QVERIFY2(text.out.contains(u"a left padding of 3 tokens"_s), qPrintable(text.out));
            const Checked off = check(npy({64, 64}, padded(16, 1, 1.01)), flags);
            QVERIFY2(off.exit == 1 && off.json[u"verdict"_s].toString() == u"mistake"_s, qPrintable(off.shown));
        }
        for (const QStringList &flags : {QStringList(), stack}) {
            const Checked c = check(npy({8, 64, 64}, padded(8, 8, 1.0)), flags);
            QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s,
                     qPrintable(flags.join(u' ') + u": "_s + c.shown));
        }
    }

    // The keys before the query masked and those after it kept: a causal mask transposed (a bias
    // indexed [key, query]), named `transposed` where its transpose is a table the check knows.
    void transposedMaskIsNamed()
    {
        const auto m = alibi(16);
        std::vector<double> t;
        for (std::int64_t i = 0; i < 64; ++i)
            for (std::int64_t j = 0; j < 64; ++j)
                t.push_back(j < i ? kMinusInf : m(1, j, i));
        const Checked c = check(npy({64, 64}, t), {});
        QVERIFY2(c.exit == 1, qPrintable(c.shown));
        QCOMPARE(c.json[u"mistakes"_s].toArray(), QJsonArray {u"transposed"_s});
        QVERIFY2(c.json[u"diagnosis"_s].toString().contains(u"every key before the query holds a mask's fill"_s),
                 qPrintable(c.shown));
        const Checked declared
            = check(npy({64, 64}, t), {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"16"_s, u"--head"_s, u"1"_s});
        QVERIFY2(declared.exit == 1 && declared.json[u"verdict"_s].toString() == u"mistake"_s,
                 qPrintable(declared.shown));
    }

    // A causal −inf mask beside cells no table holds: the mask set aside, the table unknown (exit
    // 7), not refused as an unreadable one (exit 3); an infinity elsewhere a mistake that says where.
    void maskBesideAnUnknownTable()
    {
        const auto squares = [](std::int64_t, std::int64_t i, std::int64_t j) { return std::sqrt(double(i - j)); };
        const Checked masked = check(npy({64, 64}, causal(1, 64, kMinusInf, squares)), {});
        QVERIFY2(masked.exit == 7, qPrintable(masked.shown));
        QCOMPARE(masked.json[u"verdict"_s].toString(), u"unknown"_s);
        const CliRun::Run text = CliRun::posenc({u"check"_s, m_dir.filePath(u"t.npy"_s)});
        QVERIFY2(text.out.contains(u"a causal mask, set aside"_s), qPrintable(text.out));
        std::vector<double> stray = causal(1, 64, 0.0, squares);
        stray[std::size_t(5 * 64 + 2)] = kMinusInf; // before the query
        const Checked stray5 = check(npy({64, 64}, stray), {});
        QVERIFY2(stray5.exit == 1 && stray5.json[u"verdict"_s].toString() == u"mistake"_s, qPrintable(stray5.shown));
        QVERIFY2(stray5.json[u"diagnosis"_s].toString().contains(u"row 5, column 2"_s), qPrintable(stray5.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliCheckMasks)
} // namespace tst_clicheckmasks
#include "tst_clicheckmasks.moc"
