// posenc check on RoPE caches whose width is not the declared rotary_dim's (issue 56): the table's
// own width read against the declared one and the mistake rotary-dim named with both values
// (vllm-project/vllm#43770, bailing_moe: rotary_dim taken as head_dim where the config gives
// partial_rotary_factor 0.5, a cos_sin_cache of twice the width); HF's cos and sin tables side by
// side, correct at any width; and candle's cos and sin buffers of half the rotary width
// (candle-transformers/src/models/llama.rs, Cache::new: idx_theta.cos(), [L, rotary_dim / 2]), read
// undeclared as the RoPE cache they are. Each tensor is computed here from float64 formulas
// (transformers' modeling_rope_utils.py _compute_default_rope_parameters, 1 / theta^(2i / d);
// LlamaRotaryEmbedding.forward, cat((freqs, freqs)).cos(); vLLM's
// RotaryEmbedding._compute_cos_sin_cache, cat((freqs.cos(), freqs.sin())), each half un-repeated).
#include "CliRun.h"
#include "support/TestMain.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <vector>

namespace tst_clicheckropewidth {
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

// HF's cos table of rotary_dim `rotary` (half layout): column c holds pair c mod rotary / 2.
double hfCos(std::int64_t p, std::int64_t c, std::int64_t rotary, double theta)
{
    return std::cos(angle(p, c % (rotary / 2), rotary, theta));
}

// HF's cos and sin tables side by side: [cos | sin], 2 rotary wide.
double hfPair(std::int64_t p, std::int64_t c, std::int64_t rotary, double theta)
{
    const double a = angle(p, (c % rotary) % (rotary / 2), rotary, theta);
    return c < rotary ? std::cos(a) : std::sin(a);
}

// vLLM's cos_sin_cache of rotary_dim `rotary`: [cos(freqs) | sin(freqs)], rotary wide.
double vllmCache(std::int64_t p, std::int64_t c, std::int64_t rotary, double theta)
{
    const std::int64_t h = rotary / 2;
    const double a = angle(p, c % h, rotary, theta);
    return c < h ? std::cos(a) : std::sin(a);
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

    // vllm#43770: the config's rotary_dim 64 (head_dim 128, partial_rotary_factor 0.5), the cache
    // made at rotary_dim 128; and a cos table of rotary_dim 128 declared 64, and the reverse. Each
    // was refused (exit 2), or read as a cache of half the width that no parameter explains.
    void otherWidthIsRotaryDim_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<std::int64_t>("cols");
        QTest::addColumn<std::int64_t>("made");
        QTest::addColumn<bool>("cache");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("declared");
        QTest::newRow("bailing cos_sin_cache 128, config 64")
            << u"bailing"_s << std::int64_t(128) << std::int64_t(128) << true
            << QStringList {u"--head-dim"_s, u"128"_s, u"--partial-rotary-factor"_s, u"0.5"_s}
            << u"rotary_dim 64 (head_dim 128 x partial_rotary_factor 0.5)"_s;
        QTest::newRow("cos 128 declared 64") << u"cos128"_s << std::int64_t(128) << std::int64_t(128) << false
                                             << QStringList {u"--head-dim"_s, u"64"_s} << u"rotary_dim 64"_s;
        QTest::newRow("cos 64 declared 128") << u"cos64"_s << std::int64_t(64) << std::int64_t(64) << false
                                             << QStringList {u"--head-dim"_s, u"128"_s} << u"rotary_dim 128"_s;
        QTest::newRow("cos 256 declared 64 x 0.5")
            << u"cos256"_s << std::int64_t(256) << std::int64_t(256) << false
            << QStringList {u"--head-dim"_s, u"64"_s, u"--partial-rotary-factor"_s, u"0.5"_s}
            << u"rotary_dim 32 (head_dim 64 x partial_rotary_factor 0.5)"_s;
    }
    void otherWidthIsRotaryDim()
    {
        QFETCH(QString, name);
        QFETCH(std::int64_t, cols);
        QFETCH(std::int64_t, made);
        QFETCH(bool, cache);
        QFETCH(QStringList, flags);
        QFETCH(QString, declared);
        const std::int64_t rows = 512;
        const QString path = write(name + u".npy"_s, rows, cols, table(rows, cols, [&](std::int64_t p, std::int64_t c) {
                                       return cache ? vllmCache(p, c, made, 10000.0) : hfCos(p, c, made, 10000.0);
                                   }));
        const Checked c = check(path, QStringList {u"--expect"_s, u"rope"_s} + flags);
        QVERIFY2(c.exitCode == 1, qPrintable(c.err + QString::fromUtf8(QJsonDocument(c.json).toJson())));
        QCOMPARE(c.json.value(u"verdict"_s).toString(), u"mistake"_s);
        QVERIFY2(mistakes(c).contains(u"rotary-dim"_s), qPrintable(mistakes(c).join(u", "_s)));
        const QString diagnosis = c.json.value(u"diagnosis"_s).toString();
        QVERIFY2(diagnosis.contains(u"rotary_dim %1"_s.arg(made)) && diagnosis.contains(declared),
                 qPrintable(diagnosis));
        QVERIFY2(diagnosis.contains(u"every other parameter is the declared one"_s), qPrintable(diagnosis));
    }

    // A model config whose rotary module's table is half-laid and whose apply function interleaves
    // it (GLM-4: transformers' models/glm4/modeling_glm4.py, apply_rotary_pos_emb takes
    // cos[..., :cos.shape[-1] // 2].repeat_interleave(2)), partial_rotary_factor 0.5 of head_dim 128:
    // a cache made over the whole head (rotary_dim 128, InternLM/lmdeploy#3861) in either layout is
    // rotary-dim, both values said (was refused, exit 2, by the layout whose width it is not); a
    // table of 128 columns that no rotary_dim explains is still refused, both shapes said.
    void configWidthIsRotaryDim_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("half, rotary_dim 128") << u"half"_s << 1;
        QTest::newRow("interleaved, rotary_dim 128") << u"interleaved"_s << 1;
        QTest::newRow("half, rotary_dim 64 correct") << u"half64"_s << 0;
        QTest::newRow("no RoPE table") << u"none"_s << 2;
    }
    void configWidthIsRotaryDim()
    {
        QFETCH(QString, layout);
        QFETCH(int, exitCode);
        const QString config = m_dir.filePath(u"glm4.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"architectures": ["Glm4ForCausalLM"], "model_type": "glm4", "hidden_size": 4096,
            "num_attention_heads": 32, "head_dim": 128, "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
            "max_position_embeddings": 4096})");
        file.close();
        const std::int64_t rows = 512, cols = layout == u"half64"_s ? 64 : 128;
        const QString path = write(u"glm_%1.npy"_s.arg(layout), rows, cols, table(rows, cols, [&](std::int64_t p, std::int64_t c) {
            if (layout == u"interleaved"_s)
                return std::cos(angle(p, c / 2, 128, 10000.0));
            if (layout == u"none"_s)
                return std::cos(angle(p, c, 128, 10000.0)); // every column its own frequency
            return hfCos(p, c, cols, 10000.0);
        }));
        const Checked c = check(path, {u"--expect-config"_s, config});
        const QString text = c.err + QString::fromUtf8(QJsonDocument(c.json).toJson());
        QVERIFY2(c.exitCode == exitCode, qPrintable(text));
        if (exitCode == 2) {
            QVERIFY2(c.err.contains(u"rotary_dim 64 gives a table of 64 columns; this one has 128"_s), qPrintable(text));
            return;
        }
        if (exitCode == 0) {
            QCOMPARE(c.json.value(u"verdict"_s).toString(), u"correct"_s);
            return;
        }
        // Either layout is the model's (its rotary module's half table, its apply's interleave): the
        // width alone is named, never rope-layout besides.
        QVERIFY2(mistakes(c) == QStringList {u"rotary-dim"_s}, qPrintable(text));
        const QString diagnosis = c.json.value(u"diagnosis"_s).toString();
        QVERIFY2(diagnosis.contains(u"rotary_dim 128"_s) && diagnosis.contains(u"rotary_dim 64"_s)
                     && diagnosis.contains(u"every other parameter is the declared one"_s),
                 qPrintable(diagnosis));
    }

    // HF's cos and sin tables given together: correct, declared at their width or undeclared, at
    // several widths, in about the time one table takes (a reading of twice the width once made
    // such a pair a mistake, rotary-dim and cells-shifted, a hundred times slower).
    void hfPairIsCorrect_data()
    {
        QTest::addColumn<std::int64_t>("rotary");
        QTest::addColumn<double>("theta");
        for (const std::int64_t rotary : {32, 64, 128})
            for (const double theta : {10000.0, 500000.0})
                QTest::addRow("rotary %lld, theta %g", qlonglong(rotary), theta) << rotary << theta;
    }
    void hfPairIsCorrect()
    {
        QFETCH(std::int64_t, rotary);
        QFETCH(double, theta);
        const std::int64_t rows = 1024;
        const QString path = write(
            u"pair%1_%2.npy"_s.arg(rotary).arg(theta), rows, 2 * rotary,
            table(rows, 2 * rotary, [&](std::int64_t p, std::int64_t c) { return hfPair(p, c, rotary, theta); }));
        const QStringList declared {u"--expect"_s,           u"rope"_s,         u"--head-dim"_s,
                                    QString::number(rotary), u"--rope-theta"_s, QString::number(theta)};
        const Checked d = check(path, declared);
        QVERIFY2(d.exitCode == 0, qPrintable(d.err + QString::fromUtf8(QJsonDocument(d.json).toJson())));
        QCOMPARE(d.json.value(u"verdict"_s).toString(), u"correct"_s);
        QVERIFY(mistakes(d).isEmpty());
        const QString one
            = write(u"one%1_%2.npy"_s.arg(rotary).arg(theta), rows, rotary,
                    table(rows, rotary, [&](std::int64_t p, std::int64_t c) { return hfCos(p, c, rotary, theta); }));
        const Checked single = check(one, declared);
        QCOMPARE(single.json.value(u"verdict"_s).toString(), u"correct"_s);
        // Two tables, each as one is: well within ten times one's time (and a second at least).
        QVERIFY2(d.ms < std::max<qint64>(1000, 10 * single.ms),
                 qPrintable(u"%1 ms against %2 ms"_s.arg(d.ms).arg(single.ms)));
        if (theta == 10000.0) {
            const Checked u = check(path, {});
            QVERIFY2(u.json.value(u"verdict"_s).toString() == u"correct"_s,
                     qPrintable(QString::fromUtf8(QJsonDocument(u.json).toJson())));
        }
    }

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

POSENC_TEST_GUILESS_MAIN(TestCliCheckRopeWidth)
} // namespace tst_clicheckropewidth
#include "tst_clicheckropewidth.moc"
