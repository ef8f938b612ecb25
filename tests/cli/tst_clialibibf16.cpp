// posenc check of ALiBi biases computed in bfloat16 (issue 56; REPORT-r27a finding 4c): a model in
// bfloat16 holds its bias in that dtype, made as transformers' build_alibi_tensor (BLOOM: float32
// slopes times the key position, .to(dtype)) or build_mpt_alibi_tensor makes it, or with the slope
// itself rounded to bfloat16 before the product (each rounded). A faithful bfloat16 computation
// is `correct`; a wrong one is named at bfloat16's rounding as at float32's: the slopes at other
// heads (slopes-head-order), the power-of-two formula at a non-power-of-two H (alibi-slopes); every
// head biased one key off (vllm-project/vllm#945) or a constant per head on a symmetric bias, which
// the softmax cancels: correct up to the constant, which is named.
// Every table is written here from float64 formulas (get_slopes of
// ofirpress/attention_with_linear_biases), rounded to bfloat16 as torch's .to(torch.bfloat16) does
// (to nearest even), stored both as a float32 .npy (numpy has no bfloat16: .float().numpy()) and
// as a BF16 safetensors file.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
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

namespace tst_clialibibf16 {
using namespace Qt::StringLiterals;

namespace {

// float32 rounded to bfloat16, to nearest even (torch's .to(torch.bfloat16)); infinities kept.
float bf16(double v)
{
    const float f = float(v);
    if (std::isinf(f))
        return f;
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
    float r = 0.0f;
    std::memcpy(&r, &bits, sizeof r);
    return r;
}

// The power-of-two formula taken at any H: 2^(-8k/H), k = 1..H.
std::vector<double> naiveSlopes(std::int64_t heads)
{
    std::vector<double> s;
    for (std::int64_t k = 1; k <= heads; ++k)
        s.push_back(std::pow(2.0, -8.0 * double(k) / double(heads)));
    return s;
}

// How a bias is computed in bfloat16: the product in float32 then rounded (build_alibi_tensor's
// .to(dtype)), or the slope rounded first and the product rounded again.
enum class Bf16 { Product, SlopeAndProduct };

float biasOf(double slope, double distance, Bf16 how)
{
    if (how == Bf16::Product)
        return bf16(double(float(slope) * float(distance)));
    return bf16(double(bf16(slope)) * distance);
}

// [H, L, L]: head h's query i, key j. Causal: m (j - i) for j <= i, the keys after it -inf; symmetric:
// -m |i - j|. `keysOff` takes the distance that many keys farther: m (j - i - k), -m (|i - j| + k).
std::vector<double> stack(const std::vector<double> &slopes, std::int64_t length, bool symmetric, Bf16 how,
                          std::int64_t keysOff = 0)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j) {
                if (!symmetric && j > i) {
                    v.push_back(-std::numeric_limits<double>::infinity());
                    continue;
                }
                const double distance = symmetric ? -double(std::llabs(i - j) + keysOff) : double(j - i - keysOff);
                v.push_back(double(biasOf(m, distance, how)));
            }
    return v;
}

// BLOOM's key bias [H, 1, L]: m · j.
std::vector<double> keyBias(const std::vector<double> &slopes, std::int64_t length, Bf16 how)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t j = 0; j < length; ++j)
            v.push_back(double(biasOf(m, double(j), how)));
    return v;
}

// A BF16 safetensors file of one tensor "t".
QByteArray safetensorsBf16(const std::vector<std::int64_t> &shape, const std::vector<double> &values)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    QByteArray header = (u"{\"t\":{\"dtype\":\"BF16\",\"shape\":[%1],\"data_offsets\":[0,%2]}}"_s.arg(dims.join(u","_s))
                             .arg(2 * values.size()))
                            .toUtf8();
    header.append(QByteArray((8 - header.size() % 8) % 8, ' '));
    QByteArray bytes;
    const auto size = std::uint64_t(header.size());
    for (int b = 0; b < 8; ++b)
        bytes.append(char((size >> (8 * b)) & 0xffu));
    bytes.append(header);
    for (const double v : values) {
        const float f = bf16(v);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, sizeof bits);
        bytes.append(char((bits >> 16) & 0xffu)).append(char((bits >> 24) & 0xffu));
    }
    return bytes;
}

using CliCheck::Checked;

QStringList expectAlibi(std::int64_t heads, std::int64_t length, bool symmetric)
{
    return {u"--expect"_s,  u"alibi"_s,
            u"--heads"_s,   QString::number(heads),
            u"--max-len"_s, QString::number(length),
            u"--alibi"_s,   symmetric ? u"symmetric"_s : u"causal"_s};
}

} // namespace

class TestCliAlibiBf16 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes) { return CliCheck::write(m_dir, name, bytes); }
    static Checked checkFile(const QString &file, const QStringList &flags) { return CliCheck::checkFile(file, flags); }

    // The table as a float32 .npy and as a BF16 safetensors file, each checked.
    QList<Checked> checkBoth(const std::vector<std::int64_t> &shape, const std::vector<double> &values,
                             const QStringList &flags)
    {
        return {checkFile(write(u"t.npy"_s, npy(shape, values)), flags),
                checkFile(write(u"t.safetensors"_s, safetensorsBf16(shape, values)) + u":t"_s, flags)};
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Faithful bfloat16 biases, power-of-two H and not, causal and symmetric, the stack [H, L, L] and
    // BLOOM's key bias [H, 1, L]: correct.
    void faithfulBf16IsCorrect_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("length");
        QTest::addColumn<bool>("symmetric");
        QTest::addColumn<bool>("key");
        QTest::addColumn<int>("how");
        for (const int heads : {8, 12})
            for (const int length : {64, 128})
                for (const int how : {0, 1}) {
                    const QByteArray tag = QByteArray::number(heads) + "h" + QByteArray::number(length)
                        + (how == 0 ? " float32 product" : " bf16 slope and product");
                    QTest::newRow(("stack causal " + tag).constData()) << heads << length << false << false << how;
                    QTest::newRow(("stack symmetric " + tag).constData()) << heads << length << true << false << how;
                    QTest::newRow(("BLOOM key bias " + tag).constData()) << heads << length << false << true << how;
                }
    }

    void faithfulBf16IsCorrect()
    {
        QFETCH(int, heads);
        QFETCH(int, length);
        QFETCH(bool, symmetric);
        QFETCH(bool, key);
        QFETCH(int, how);
        const std::vector<double> slopes = alibiref::slopes(heads);
        const auto h = std::int64_t(heads), l = std::int64_t(length);
        const std::vector<std::int64_t> shape = key ? std::vector<std::int64_t> {h, 1, l} : std::vector {h, l, l};
        const std::vector<double> values = key ? keyBias(slopes, l, Bf16(how)) : stack(slopes, l, symmetric, Bf16(how));
        for (const Checked &c : checkBoth(shape, values, expectAlibi(h, l, symmetric)))
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
    }

    // Wrong bfloat16 biases named as at float32: the slopes, their heads, one key off, a constant.
    void wrongBf16IsNamed_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mistake");
        for (const int length : {64, 128}) {
            const QByteArray l = " L " + QByteArray::number(length);
            QTest::newRow(("heads reversed, 12 heads" + l).constData()) << 12 << length << 0 << u"slopes-head-order"_s;
            QTest::newRow(("2^(-8k/12) at 12 heads" + l).constData()) << 12 << length << 1 << u"alibi-slopes"_s;
            QTest::newRow(("one key off, 8 heads" + l).constData()) << 8 << length << 2 << u"position-offset"_s;
            QTest::newRow(("one key off, 12 heads" + l).constData()) << 12 << length << 2 << u"position-offset"_s;
            QTest::newRow(("symmetric minus a slope, 8 heads" + l).constData())
                << 8 << length << 3 << u"cells-offset"_s;
            QTest::newRow(("key bias heads reversed, 12 heads" + l).constData())
                << 12 << length << 4 << u"slopes-head-order"_s;
        }
    }

    void wrongBf16IsNamed()
    {
        QFETCH(int, heads);
        QFETCH(int, length);
        QFETCH(int, kind);
        QFETCH(QString, mistake);
        const auto h = std::int64_t(heads), l = std::int64_t(length);
        std::vector<double> slopes = alibiref::slopes(h);
        std::vector<double> reversed(slopes.rbegin(), slopes.rend());
        const bool symmetric = kind == 3;
        std::vector<double> values;
        std::vector<std::int64_t> shape {h, l, l};
        switch (kind) {
        case 0:
            values = stack(reversed, l, false, Bf16::Product);
            break;
        case 1:
            values = stack(naiveSlopes(h), l, false, Bf16::Product);
            break;
        case 2:
            values = stack(slopes, l, false, Bf16::Product, 1);
            break;
        case 3:
            values = stack(slopes, l, true, Bf16::SlopeAndProduct, 1);
            break;
        default:
            values = keyBias(reversed, l, Bf16::Product);
            shape = {h, 1, l};
        }
        // A constant per head (kinds 2, 3) is one per query row, which the softmax cancels: correct up
        // to it, the constant named, never a mistake (issue 56, REPORT-r28a finding 6, REPORT-r29a 3).
        const bool constant = kind == 2 || kind == 3;
        for (const Checked &c : checkBoth(shape, values, expectAlibi(h, l, symmetric))) {
            QVERIFY2(constant ? c.verdict() == u"correct"_s && c.mistakes().isEmpty()
                              : c.verdict() == u"mistake"_s && c.mistakes() == QJsonArray {mistake},
                     qPrintable(c.shown));
            if (kind == 2)
                QVERIFY2(c.diagnosis().contains(u"minus 1 times its slope"_s), qPrintable(c.shown));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliAlibiBf16)
} // namespace tst_clialibibf16
#include "tst_clialibibf16.moc"
