// `posenc check V --expect-table R` where V and R are vectors of a formula's parameters (RoPE's
// inv_freq, ALiBi's slopes), both float32 files: compared within float32's rounding, never within
// that of a format every value happens to be, and a deviation named as the family names it, in
// either order (the file declared may be the wrong one):
// - Qwen3's inv_freq rounded to bfloat16 before the angles are formed (sgl-project/sglang-jax#1472):
//   half-precision-angles, once correct within bfloat16's rounding because every value is one;
// - gpt-oss's YaRN inv_freq with truncate where the model sets it false (vllm-project/vllm#27722):
//   yarn-truncate with both values, also against --expect rope --preset gpt-oss-20b, whose sentence
//   once printed the same parameters twice and named nothing;
// - MPT-7B's slopes with the exponent from 0 (paiml/aprender#2143): alibi-slopes, once
//   position-offset ("rows moved down by one row"), a table's word for a vector.
// The vectors are float64 formulas here: transformers' modeling_rope_utils.py,
// _compute_default_rope_parameters (1 / base^(2i / d)) and _compute_yarn_parameters
// (find_correction_dim, find_correction_range with truncate's floor and ceil, linear_ramp_factor),
// and ALiBi's get_slopes (ofirpress/attention_with_linear_biases, models/transformer.py).
#include "CheckReportText.h"
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tst_clivectorreference {
using namespace Qt::StringLiterals;

namespace {

std::vector<double> defaultInv(double theta, qint64 dim)
{
    std::vector<double> out;
    for (qint64 i = 0; i < dim / 2; ++i)
        out.push_back(std::pow(theta, -double(2 * i) / double(dim)));
    return out;
}

// _compute_yarn_parameters' inv_freq (beta_fast 32, beta_slow 1), truncate as given.
std::vector<double> yarnInv(double theta, qint64 dim, double factor, double original, bool truncate)
{
    const auto correction = [&](double rotations) {
        return double(dim) * std::log(original / (rotations * 2.0 * M_PI)) / (2.0 * std::log(theta));
    };
    double low = correction(32.0), high = correction(1.0);
    if (truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, double(dim - 1));
    if (low == high)
        high += 0.001;
    std::vector<double> out;
    for (qint64 i = 0; i < dim / 2; ++i) {
        const double extrapolation = std::pow(theta, -double(2 * i) / double(dim));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        out.push_back(extrapolation / factor * ramp + extrapolation * (1.0 - ramp));
    }
    return out;
}

// get_slopes(n) for n a power of two: 2^(-8(h + 1)/n); `from` 0 gives aprender#2143's 2^(-8h/n).
std::vector<double> slopes(qint64 n, qint64 from = 1)
{
    std::vector<double> s;
    for (qint64 h = 0; h < n; ++h)
        s.push_back(std::pow(2.0, -8.0 * double(h + from) / double(n)));
    return s;
}

std::vector<float> asFloat(const std::vector<double> &v)
{
    return std::vector<float>(v.begin(), v.end());
}

// Each value as float32, then rounded to the nearest bfloat16 (ties to even), kept in float32:
// `inv_freq.to(torch.bfloat16)` stored back in a float32 file.
std::vector<float> asBFloat16(const std::vector<double> &v)
{
    std::vector<float> out;
    for (const double x : v) {
        const float f = float(x);
        std::uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        bits += 0x7fffu + ((bits >> 16) & 1u);
        bits &= 0xffff0000u;
        float rounded;
        std::memcpy(&rounded, &bits, sizeof rounded);
        out.push_back(rounded);
    }
    return out;
}

using CheckReportText::mistakesOf;
using CheckReportText::shown;

} // namespace

class TestCliVectorReference : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_count = 0;

    QString written(const std::vector<qint64> &shape, const std::vector<float> &values)
    {
        const QString file = m_dir.filePath(u"v%1.npy"_s.arg(m_count++));
        return CliRun::writeNpyShaped(file, shape, values) ? file : QString();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The buggy vector against the fixed one names the mistake as the fixed one's family reading
    // declared would; the fixed one against the buggy one names it too, said of the reference.
    void namedEitherWay_data()
    {
        QTest::addColumn<std::vector<qint64>>("shape");
        QTest::addColumn<std::vector<float>>("fixed");
        QTest::addColumn<std::vector<float>>("buggy");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("buggyWords");
        QTest::addColumn<QString>("fixedWords");
        const std::vector<double> qwen3 = defaultInv(1e6, 128);
        QTest::newRow("Qwen3 inv_freq rounded to bfloat16")
            << std::vector<qint64> {64} << asFloat(qwen3) << asBFloat16(qwen3) << u"half-precision-angles"_s
            << u"rounded to bfloat16"_s << u"rounded to bfloat16"_s;
        QTest::newRow("gpt-oss inv_freq truncated")
            << std::vector<qint64> {32} << asFloat(yarnInv(150000.0, 64, 32.0, 4096.0, false))
            << asFloat(yarnInv(150000.0, 64, 32.0, 4096.0, true)) << u"yarn-truncate"_s
            << u"truncate true where false is the reference table's"_s
            << u"truncate false where true is the reference table's"_s;
        QTest::newRow("MPT-7B slopes, exponent from 0, [1, H, 1, 1]")
            << std::vector<qint64> {1, 32, 1, 1} << asFloat(slopes(32)) << asFloat(slopes(32, 0)) << u"alibi-slopes"_s
            << u"the exponent starting at 0"_s << u"the exponent starting at 0"_s;
    }
    void namedEitherWay()
    {
        QFETCH(std::vector<qint64>, shape);
        QFETCH(std::vector<float>, fixed);
        QFETCH(std::vector<float>, buggy);
        QFETCH(QString, mistake);
        QFETCH(QString, buggyWords);
        QFETCH(QString, fixedWords);
        const QString fixedFile = written(shape, fixed), buggyFile = written(shape, buggy);
        QVERIFY(!fixedFile.isEmpty() && !buggyFile.isEmpty());
        const QJsonObject same = CliRun::checked(fixedFile, {u"--expect-table"_s, fixedFile, u"--quiet"_s});
        QVERIFY2(same[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(same)));

        const QJsonObject bug = CliRun::checked(buggyFile, {u"--expect-table"_s, fixedFile, u"--quiet"_s});
        QVERIFY2(bug[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(bug) == QStringList {mistake}
                     && bug[u"exit"_s].toInt() == 1,
                 qPrintable(shown(bug)));
        const QString d = bug[u"diagnosis"_s].toString();
        QVERIFY2(d.startsWith(u"the reference table reads, without a declaration, as "_s) && d.contains(buggyWords),
                 qPrintable(shown(bug)));
        // A vector's values are no positions' rows.
        QVERIFY2(bug[u"first_position_row"_s].isNull(), qPrintable(shown(bug)));

        // The reference the wrong one: still a mistake (the file declared differs), the mistake it
        // holds named and said to be the reference's, the vector the reference's parameters' own.
        const QJsonObject fix = CliRun::checked(fixedFile, {u"--expect-table"_s, buggyFile, u"--quiet"_s});
        QVERIFY2(fix[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(fix) == QStringList {mistake},
                 qPrintable(shown(fix)));
        QVERIFY2(fix[u"diagnosis"_s].toString().contains(fixedWords), qPrintable(shown(fix)));
    }

    // A reference that is itself the mistake says so; one that is a variant names the difference.
    void wrongReferenceSaid()
    {
        const std::vector<double> qwen3 = defaultInv(1e6, 128);
        const QString fixedFile = written({64}, asFloat(qwen3)), buggyFile = written({64}, asBFloat16(qwen3));
        const QJsonObject o = CliRun::checked(fixedFile, {u"--expect-table"_s, buggyFile, u"--quiet"_s});
        QVERIFY2(o[u"diagnosis"_s].toString().startsWith(u"the reference table holds the mistake, not the vector"_s),
                 qPrintable(shown(o)));
    }

    // Twelve heads' slopes each read one head along (get_slopes(12)'s heads 2..13 of its two
    // interleaved series: 2^(-8h/8) for h = 2..8, then 2^(-(2k - 1)/2) for k = 1..5), nothing
    // declared: neither reading names them, and each says why, ALiBi's with get_slopes' values,
    // not RoPE's alone as if the vector could only be inv_freq.
    void eachReadingSaysWhyItNamesNothing()
    {
        const std::vector<double> eight = slopes(8);
        std::vector<double> moved(eight.begin() + 1, eight.end());
        for (int k = 1; k <= 5; ++k)
            moved.push_back(std::exp2(-(2.0 * k - 1.0) / 2.0));
        const QJsonObject o = CliRun::checked(written({12}, asFloat(moved)), {u"--quiet"_s});
        const QString d = o[u"diagnosis"_s].toString();
        QVERIFY2(o[u"verdict"_s].toString() == u"unknown"_s, qPrintable(shown(o)));
        QVERIFY2(d.contains(u"as RoPE's inv_freq (--expect rope)"_s) && d.contains(u"as ALiBi's slopes (--expect alibi)"_s)
                     && d.contains(u"get_slopes(12)"_s),
                 qPrintable(shown(o)));
    }

    // Declared by the preset: the truncated vector's mistake named, the two readings said apart.
    void truncateAgainstThePreset()
    {
        const QString file = written({32}, asFloat(yarnInv(150000.0, 64, 32.0, 4096.0, true)));
        const QJsonObject o
            = CliRun::checked(file, {u"--expect"_s, u"rope"_s, u"--preset"_s, u"gpt-oss-20b"_s, u"--quiet"_s});
        QVERIFY2(o[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(o) == QStringList {u"yarn-truncate"_s},
                 qPrintable(shown(o)));
        const QString d = o[u"diagnosis"_s].toString();
        QVERIFY2(d.startsWith(u"truncate true where false is declared"_s) && d.contains(u"truncate false"_s),
                 qPrintable(shown(o)));
        // The faithful vector is correct against the preset.
        const QString fixedFile = written({32}, asFloat(yarnInv(150000.0, 64, 32.0, 4096.0, false)));
        const QJsonObject fixed
            = CliRun::checked(fixedFile, {u"--expect"_s, u"rope"_s, u"--preset"_s, u"gpt-oss-20b"_s, u"--quiet"_s});
        QVERIFY2(fixed[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(fixed)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliVectorReference)
} // namespace tst_clivectorreference
#include "tst_clivectorreference.moc"
