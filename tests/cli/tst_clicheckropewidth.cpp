// posenc check on RoPE caches whose width is not the rotary_dim's (issue 56): candle's cos and sin
// buffers of half the rotary width
// (candle-transformers/src/models/llama.rs, Cache::new: idx_theta.cos(), [L, rotary_dim / 2]), read
// undeclared as the RoPE cache they are. Each tensor is computed here from float64 formulas
// (transformers' modeling_rope_utils.py _compute_default_rope_parameters, 1 / theta^(2i / d);
// LlamaRotaryEmbedding.forward, cat((freqs, freqs)).cos(); vLLM's
// RotaryEmbedding._compute_cos_sin_cache, cat((freqs.cos(), freqs.sin())), each half un-repeated).
#include "CliRun.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <vector>

using namespace Qt::StringLiterals;

namespace {

// A float32 .npy of rows x cols, CliRun's preamble and the cells.
QByteArray npy(std::int64_t rows, std::int64_t cols, const std::vector<float> &values)
{
    return CliRun::npyHeader(rows, cols)
        + QByteArray(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
}

// The angle of pair i at position p: p / theta^(2i / rotary).
double angle(std::int64_t p, std::int64_t i, std::int64_t rotary, double theta)
{
    return double(p) / std::pow(theta, 2.0 * double(i) / double(rotary));
}

// An L x cols table, cell(p, c) in float64 rounded to float32.
std::vector<float> table(std::int64_t rows, std::int64_t cols,
                         const std::function<double(std::int64_t, std::int64_t)> &cell)
{
    std::vector<float> v(std::size_t(rows * cols));
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < cols; ++c)
            v[std::size_t(p * cols + c)] = float(cell(p, c));
    return v;
}

struct Checked
{
    int exitCode = -1;
    QJsonObject json;
    QString err;
    qint64 ms = 0;
};

class TestCliCheckRopeWidth : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, std::int64_t rows, std::int64_t cols, const std::vector<float> &values)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        file.write(npy(rows, cols, values));
        return path;
    }

    Checked check(const QString &path, const QStringList &flags)
    {
        QElapsedTimer timer;
        timer.start();
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, path, u"--json"_s, u"--quiet"_s} + flags);
        Checked c;
        c.ms = timer.elapsed();
        c.exitCode = run.exitCode;
        c.err = run.err;
        c.json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        return c;
    }

    // The report as text: its notes, which the JSON does not hold.
    static QString report(const QString &path) { return CliRun::posenc({u"check"_s, path, u"--quiet"_s}).out; }

    static QStringList mistakes(const Checked &c)
    {
        QStringList out;
        for (const QJsonValue &v : c.json.value(u"mistakes"_s).toArray())
            out.append(v.toString());
        return out;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // candle's cos and sin buffers, [L, rotary_dim / 2], undeclared: RoPE's cache of half the
    // rotary width (was unknown), correct at RoFormer's theta; a theta no published form uses a
    // variant, named.
    void halfCacheUndeclared_data()
    {
        QTest::addColumn<std::int64_t>("half");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<double>("theta");
        QTest::addColumn<QString>("verdict");
        for (const std::int64_t half : {16, 32, 64}) {
            QTest::addRow("cos %lld", qlonglong(half)) << half << true << 10000.0 << u"correct"_s;
            QTest::addRow("sin %lld", qlonglong(half)) << half << false << 10000.0 << u"correct"_s;
        }
        QTest::newRow("cos 64, theta 20000") << std::int64_t(64) << true << 20000.0 << u"variant"_s;
    }
    void halfCacheUndeclared()
    {
        QFETCH(std::int64_t, half);
        QFETCH(bool, cosine);
        QFETCH(double, theta);
        QFETCH(QString, verdict);
        const std::int64_t rows = 400;
        const QString path = write(u"half%1_%2_%3.npy"_s.arg(half).arg(cosine).arg(theta), rows, half,
                                   table(rows, half, [&](std::int64_t p, std::int64_t c) {
                                       const double a = angle(p, c, 2 * half, theta);
                                       return cosine ? std::cos(a) : std::sin(a);
                                   }));
        const Checked c = check(path, {});
        const QString text = QString::fromUtf8(QJsonDocument(c.json).toJson());
        QVERIFY2(c.json.value(u"verdict"_s).toString() == verdict, qPrintable(text + c.err));
        QCOMPARE(c.json.value(u"encoding"_s).toString(), cosine ? u"rope-cos"_s : u"rope-sin"_s);
        QVERIFY(mistakes(c).isEmpty());
        const QString words = report(path);
        QVERIFY2(words.contains(u"half of rotary_dim %1"_s.arg(2 * half)), qPrintable(words));
    }
};

} // namespace

QTEST_GUILESS_MAIN(TestCliCheckRopeWidth)
#include "tst_clicheckropewidth.moc"
