// `posenc check TABLE --expect-table REFERENCE` where both are stored as ports keep a rotary cache
// rather than as HF's [L, d] table: a cache of half the width (one column per pair, candle's and
// vLLM's cos of the frequencies) rounded to bfloat16, and Meta's complex freqs_cis (llama/model.py,
// precompute_freqs_cis: torch.polar(ones, outer(t, freqs)), saved as complex64 or through
// torch.view_as_real as [L, d/2, 2]). A table that deviates by a parameter is named as it is against
// a whole float32 table (TableCheck::nameByReferenceReading): the storage does not hide the mistake.
// And `--expect-config` of Phi-3's LongRoPE config: a table without the attention factor is named
// attention-factor-missing, the other list longrope-factor-set. Every table is a float64 formula
// here, rounded as its storage rounds it.
#include "CliRun.h"
#include "NpyBytes.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>
#include <vector>

namespace tst_cliexpectstorage {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 512;
constexpr qint64 kDim = 128; // head_dim: kDim / 2 frequencies

// How a port's table deviates from the reference's: none, rope_theta 10000 for 500000, positions
// from 3, or the frequencies divided by 4 (linear scaling no config declares); or none, its angles
// formed in float32 as torch forms them (inv_freq in float32, torch.outer in float32), a faithful
// computation.
enum class Deviation { None, Theta, Shift, Linear, Float32 };

// The angle of position p and pair i: (p + shift) theta^(-2i/d) / scale (modeling_rope_utils.py,
// _compute_default_rope_parameters; llama/model.py, precompute_freqs_cis).
double angle(qint64 p, qint64 i, Deviation how)
{
    const double theta = how == Deviation::Theta ? 10000.0 : 500000.0;
    const double shift = how == Deviation::Shift ? 3.0 : 0.0;
    const double scale = how == Deviation::Linear ? 4.0 : 1.0;
    if (how == Deviation::Float32)
        return double(float(p) * float(1.0 / std::pow(500000.0, 2.0 * double(i) / double(kDim))));
    return (double(p) + shift) * std::pow(theta, -2.0 * double(i) / double(kDim)) / scale;
}

QStringList mistakesOf(const QJsonObject &o)
{
    QStringList names;
    for (const QJsonValue &v : o[u"mistakes"_s].toArray())
        names.append(v.toString());
    return names;
}

QString shown(const QJsonObject &o)
{
    return u"exit %1, %2 %3: %4"_s.arg(o[u"exit"_s].toInt())
        .arg(o[u"verdict"_s].toString(), mistakesOf(o).join(u","_s), o[u"diagnosis"_s].toString());
}

// Writes `values` as a .npy of `shape` and numpy's `descr` (NpyBytes.h).
bool writeNpy(const QString &path, const std::vector<qint64> &shape, const std::vector<float> &values,
              const QByteArray &descr)
{
    const std::vector<std::int64_t> dims(shape.begin(), shape.end());
    const QByteArray bytes = npyOfFloats(dims, values, descr);
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace

class TestCliExpectStorage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_written = 0;

    QString path(const QString &stem) { return m_dir.filePath(u"%1-%2.npy"_s.arg(stem).arg(++m_written)); }

    // HF's cos table [L, d] in float32: cat(freqs, freqs).cos().
    QString wholeCos(Deviation how)
    {
        std::vector<float> v;
        for (qint64 p = 0; p < kRows; ++p)
            for (qint64 j = 0; j < kDim; ++j)
                v.push_back(float(std::cos(angle(p, j % (kDim / 2), how))));
        const QString file = path(u"whole"_s);
        return writeNpy(file, {kRows, kDim}, v, "<f4") ? file : QString();
    }

    // The cache of half its width [L, d/2], freqs.cos() rounded to bfloat16 (stored as float32,
    // as .float().numpy() gives it).
    QString halfCos(Deviation how)
    {
        std::vector<float> v;
        for (qint64 p = 0; p < kRows; ++p)
            for (qint64 i = 0; i < kDim / 2; ++i)
                v.push_back(halffloats::toBFloat16(float(std::cos(angle(p, i, how)))));
        const QString file = path(u"half"_s);
        return writeNpy(file, {kRows, kDim / 2}, v, "<f4") ? file : QString();
    }

    // Meta's freqs_cis: complex64 [L, d/2], or its torch.view_as_real [L, d/2, 2] float32.
    QString freqsCis(Deviation how, bool asReal)
    {
        std::vector<float> v;
        for (qint64 p = 0; p < kRows; ++p) {
            for (qint64 i = 0; i < kDim / 2; ++i) {
                v.push_back(float(std::cos(angle(p, i, how))));
                v.push_back(float(std::sin(angle(p, i, how))));
            }
        }
        const QString file = path(asReal ? u"real"_s : u"complex"_s);
        const bool written
            = asReal ? writeNpy(file, {kRows, kDim / 2, 2}, v, "<f4") : writeNpy(file, {kRows, kDim / 2}, v, "<c8");
        return written ? file : QString();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void storedReferenceNamesAsWholeOne_data()
    {
        QTest::addColumn<int>("storage");
        QTest::addColumn<int>("deviation");
        const QStringList storages {u"half bf16"_s, u"complex64"_s, u"view_as_real"_s};
        const QStringList deviations {u"theta"_s, u"shift"_s, u"linear"_s};
        for (int s = 0; s < storages.size(); ++s)
            for (int d = 0; d < deviations.size(); ++d)
                QTest::newRow(qPrintable(storages[s] + u" "_s + deviations[d])) << s << d + 1;
    }

    // The deviation named under a reference of the table's own storage as under a whole float32
    // table of HF's layout, and the table of float32 angles against the exact ones correct.
    void storedReferenceNamesAsWholeOne()
    {
        QFETCH(int, storage);
        QFETCH(int, deviation);
        const auto how = Deviation(deviation);
        const auto stored = [&](Deviation d) { return storage == 0 ? halfCos(d) : freqsCis(d, storage == 2); };
        const QString reference = stored(Deviation::None), port = stored(how);
        QVERIFY(!reference.isEmpty() && !port.isEmpty());
        const QJsonObject whole = CliRun::checked(wholeCos(how), {u"--expect-table"_s, wholeCos(Deviation::None)});
        QVERIFY2(whole[u"exit"_s].toInt() == 1 && !mistakesOf(whole).isEmpty(), qPrintable(shown(whole)));
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        QVERIFY2(o[u"exit"_s].toInt() == 1 && o[u"verdict"_s].toString() == u"mistake"_s, qPrintable(shown(o)));
        QVERIFY2(mistakesOf(o) == mistakesOf(whole), qPrintable(shown(o) + u"\nwhole: "_s + shown(whole)));
        if (how == Deviation::Theta) {
            // Both values of the parameter.
            QVERIFY2(o[u"diagnosis"_s].toString().contains(u"rope_theta 10000 where the reference table's reading "
                                                           "gives 500000"_s),
                     qPrintable(shown(o)));
        }
        const QJsonObject same = CliRun::checked(stored(Deviation::Float32), {u"--expect-table"_s, reference});
        QVERIFY2(same[u"exit"_s].toInt() == 0 && same[u"verdict"_s].toString() == u"correct"_s,
                 qPrintable(shown(same)));
    }

    // Phi-3 mini 128k's LongRoPE (its config's short_factor and long_factor, rope_theta 10000, head 96,
    // original 4096 of 131072) as transformers computes it (modeling_rope_utils.py,
    // _compute_longrope_parameters: inv_i = 1 / (ext_i theta^(2i/d)), attention_factor
    // sqrt(1 + ln(131072 / 4096) / ln 4096); LlamaRotaryEmbedding.forward: cos() * attention_scaling),
    // short_factor while max(position_ids) + 1 <= 4096, long_factor beyond (longrope_frequency_update).
    // A table of the right list without the factor is attention-factor-missing with both values; the
    // other list with the factor is longrope-factor-set; the right one is correct.
    void longRopeFactorAndListNamed_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("otherList");
        QTest::addColumn<bool>("factor");
        QTest::addColumn<QString>("mistake");
        for (const qint64 rows : {qint64(512), qint64(4096), qint64(4608)}) {
            const QString at = QString::number(rows);
            QTest::newRow(qPrintable(at + u" rows"_s)) << rows << false << true << QString();
            QTest::newRow(qPrintable(at + u" rows, no factor"_s))
                << rows << false << false << u"attention-factor-missing"_s;
            QTest::newRow(qPrintable(at + u" rows, other list"_s)) << rows << true << true << u"longrope-factor-set"_s;
        }
    }

    void longRopeFactorAndListNamed()
    {
        QFETCH(qint64, rows);
        QFETCH(bool, otherList);
        QFETCH(bool, factor);
        QFETCH(QString, mistake);
        const QString config = QStringLiteral(POSENC_CONFIGS) + u"/Phi-3-mini-128k-instruct.json"_s;
        QFile file(config);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject scaling = QJsonDocument::fromJson(file.readAll()).object()[u"rope_scaling"_s].toObject();
        const bool longList = (rows > 4096) != otherList;
        std::vector<double> ext;
        for (const QJsonValue v : scaling[longList ? u"long_factor"_s : u"short_factor"_s].toArray())
            ext.push_back(v.toDouble());
        constexpr qint64 d = 96;
        QCOMPARE(qint64(ext.size()), d / 2);
        const double attention = factor ? std::sqrt(1.0 + std::log(131072.0 / 4096.0) / std::log(4096.0)) : 1.0;
        std::vector<float> v;
        for (qint64 p = 0; p < rows; ++p) {
            for (qint64 j = 0; j < d; ++j) {
                const qint64 i = j % (d / 2);
                const double inv = 1.0 / (ext[std::size_t(i)] * std::pow(10000.0, double(2 * i) / double(d)));
                v.push_back(float(attention * std::cos(double(p) * inv)));
            }
        }
        const QString table = path(u"longrope"_s);
        QVERIFY(writeNpy(table, {rows, d}, v, "<f4"));
        const QJsonObject o = CliRun::checked(table, {u"--expect-config"_s, config});
        if (mistake.isEmpty()) {
            QVERIFY2(o[u"exit"_s].toInt() == 0 && o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
            return;
        }
        QVERIFY2(o[u"exit"_s].toInt() == 1 && mistakesOf(o).value(0) == mistake, qPrintable(shown(o)));
        if (!factor) {
            // Both values: the table's 1 and the config's sqrt(1 + ln 32 / ln 4096) = 1.19024.
            QVERIFY2(o[u"diagnosis"_s].toString().contains(u"the amplitude is 1,"_s)
                         && o[u"diagnosis"_s].toString().contains(u"= 1.1902 "_s),
                     qPrintable(shown(o)));
            QVERIFY2(!mistakesOf(o).contains(u"longrope-factor-set"_s), qPrintable(shown(o)));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectStorage)
} // namespace tst_cliexpectstorage
#include "tst_cliexpectstorage.moc"
