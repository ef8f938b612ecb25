// diffusers' timestep embedding on the command line (issue 56): the sinusoid's flip-sin-to-cos,
// freq-shift and timestep-scale in `posenc table`, a declared reference under `posenc check
// --expect sinusoidal` and a diffusers config under `--expect-config`. The reference is
// huggingface/diffusers src/diffusers/models/embeddings.py, get_timestep_embedding:
//   exponent = -log(max_period) * arange(half_dim, float32) / (half_dim - downscale_freq_shift)
//   emb = timesteps[:, None].float() * exp(exponent)[None, :]; emb = scale * emb
//   emb = cat([sin(emb), cos(emb)], -1), flipped to cat([cos, sin]) by flip_sin_to_cos,
// written here twice: in float64 (what posenc's exact table must equal) and in float32 step by step
// as torch computes it (the tables a model dumps, which the check must call correct).
#include "CliRun.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace tst_clitimestep {
using namespace Qt::StringLiterals;

namespace {

struct Form
{
    int d = 256;
    bool flip = false;
    double shift = 0.0;
    double scale = 1.0;
    double maxPeriod = 10000.0;
};

// get_timestep_embedding in float64 at positions 0 .. rows - 1 (d even: half_dim = d / 2).
std::vector<double> exactTable(const Form &f, int rows)
{
    const int half = f.d / 2;
    std::vector<double> out(static_cast<std::size_t>(rows) * f.d);
    for (int p = 0; p < rows; ++p) {
        for (int i = 0; i < half; ++i) {
            const double w = std::exp(-std::log(f.maxPeriod) * i / (half - f.shift));
            const double angle = f.scale * p * w;
            const int sine = f.flip ? half + i : i;
            const int cosine = f.flip ? i : half + i;
            out[std::size_t(p) * f.d + sine] = std::sin(angle);
            out[std::size_t(p) * f.d + cosine] = std::cos(angle);
        }
    }
    return out;
}

// The same in float32, each step rounded as torch rounds it, at timesteps t_p = p * step.
std::vector<float> torchTable(const Form &f, int rows, float step = 1.0f)
{
    const int half = f.d / 2;
    std::vector<float> out(static_cast<std::size_t>(rows) * f.d);
    for (int p = 0; p < rows; ++p) {
        const float t = static_cast<float>(p) * step;
        for (int i = 0; i < half; ++i) {
            const float exponent = static_cast<float>(-std::log(f.maxPeriod)) * static_cast<float>(i)
                / static_cast<float>(half - f.shift);
            const float w = std::exp(exponent);
            const float angle = static_cast<float>(f.scale) * (t * w);
            const int sine = f.flip ? half + i : i;
            const int cosine = f.flip ? i : half + i;
            out[std::size_t(p) * f.d + sine] = std::sin(angle);
            out[std::size_t(p) * f.d + cosine] = std::cos(angle);
        }
    }
    return out;
}

QStringList formFlags(const Form &f)
{
    QStringList flags {
        u"--encoding"_s,       u"sinusoidal"_s,          u"--layout"_s,     u"split"_s,
        u"--d-model"_s,        QString::number(f.d),     u"--freq-shift"_s, QString::number(f.shift),
        u"--timestep-scale"_s, QString::number(f.scale), u"--base"_s,       QString::number(f.maxPeriod)};
    if (f.flip)
        flags.append(u"--flip-sin-to-cos"_s);
    return flags;
}

QJsonObject checked(const QStringList &arguments)
{
    const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s} + arguments + QStringList {u"--json"_s});
    QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    o[u"exit"_s] = run.exitCode;
    o[u"stderr"_s] = run.err;
    return o;
}

QByteArray shown(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).left(900);
}

} // namespace

class TestCliTimestep : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString written(const QString &name, const Form &f, int rows, float step = 1.0f)
    {
        const QString path = m_dir.filePath(name);
        return CliRun::writeNpy(path, rows, f.d, torchTable(f, rows, step)) ? path : QString();
    }

private slots:
    // posenc table writes get_timestep_embedding, every cell within float32's rounding of float64.
    void tableIsTheFormula_data()
    {
        QTest::addColumn<Form>("form");
        QTest::addColumn<int>("rows");
        QTest::newRow("Stable Diffusion: cos first, shift 0, d 320") << Form {320, true, 0.0, 1.0, 10000.0} << 1000;
        QTest::newRow("DDPM: sin first, shift 1, d 128") << Form {128, false, 1.0, 1.0, 10000.0} << 1000;
        QTest::newRow("DiT: cos first, shift 1, d 256") << Form {256, true, 1.0, 1.0, 10000.0} << 300;
        QTest::newRow("AuraFlow: scale 1000") << Form {256, true, 0.0, 1000.0, 10000.0} << 64;
        QTest::newRow("shift 0.5, max_period 500") << Form {64, true, 0.5, 1.0, 500.0} << 2000;
        QTest::newRow("wide: d 4096, cos first") << Form {4096, true, 0.0, 1.0, 10000.0} << 40;
    }
    void tableIsTheFormula()
    {
        QFETCH(Form, form);
        QFETCH(int, rows);
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(u"table.npy"_s);
        const CliRun::Run run = CliRun::posenc(
            QStringList {u"table"_s, u"pe"_s, u"--max-len"_s, QString::number(rows), u"-o"_s, path, u"--force"_s}
            + formFlags(form));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const CliRun::Table t = CliRun::readNpy(path);
        QCOMPARE(t.rows, qint64(rows));
        QCOMPARE(t.cols, qint64(form.d));
        const std::vector<double> exact = exactTable(form, rows);
        double worst = 0.0;
        for (std::size_t k = 0; k < exact.size(); ++k)
            worst = std::max(worst, std::fabs(double(t.values[k]) - exact[k]));
        QVERIFY2(worst <= 1e-6, qPrintable(u"max |error| %1"_s.arg(worst)));
    }

    // posenc's own odd d: ceil(d/2) sines and floor(d/2) cosines, the cosines first when flipped.
    void oddWidthFlipsItsOwnColumns()
    {
        const QString path = m_dir.filePath(u"odd.npy"_s);
        const CliRun::Run run = CliRun::posenc({u"table"_s, u"pe"_s, u"--encoding"_s, u"sinusoidal"_s, u"--d-model"_s,
                                                u"7"_s, u"--max-len"_s, u"50"_s, u"--layout"_s, u"split"_s,
                                                u"--flip-sin-to-cos"_s, u"-o"_s, path, u"--force"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const CliRun::Table t = CliRun::readNpy(path);
        QCOMPARE(t.cols, qint64(7));
        for (int p = 0; p < 50; ++p) {
            for (int i = 0; i < 4; ++i) {
                const double w = std::exp(-2.0 * i * std::log(10000.0) / 7.0);
                QVERIFY(std::fabs(t.at(p, 3 + i) - std::sin(p * w)) <= 1e-6);
                if (i < 3)
                    QVERIFY(std::fabs(t.at(p, i) - std::cos(p * w)) <= 1e-6);
            }
        }
    }

    // The flags' ranges: one line naming the flag, exit 2.
    void badValuesAreRefused_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("flag");
        QTest::newRow("shift at d/2") << QStringList {u"--freq-shift"_s, u"128"_s} << u"--freq-shift"_s;
        QTest::newRow("shift not a number") << QStringList {u"--freq-shift"_s, u"nan"_s} << u"--freq-shift"_s;
        QTest::newRow("scale 0") << QStringList {u"--timestep-scale"_s, u"0"_s} << u"--timestep-scale"_s;
        QTest::newRow("scale infinite") << QStringList {u"--timestep-scale"_s, u"inf"_s} << u"--timestep-scale"_s;
        QTest::newRow("scale past 10^6") << QStringList {u"--timestep-scale"_s, u"2e6"_s} << u"--timestep-scale"_s;
    }
    void badValuesAreRefused()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, flag);
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"table"_s, u"pe"_s, u"--encoding"_s, u"sinusoidal"_s, u"--d-model"_s,
                                          u"256"_s, u"-o"_s, m_dir.filePath(u"bad.npy"_s)}
                             + flags);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(flag), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(!QFile::exists(m_dir.filePath(u"bad.npy"_s)));
    }

    // Tables as torch computes them (float32 throughout), against a declared form: the form they
    // are is correct, any other a mistake naming the parameter that differs.
    void declaredForm_data()
    {
        QTest::addColumn<Form>("table");
        QTest::addColumn<float>("step");
        QTest::addColumn<Form>("declared");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        const Form sd {320, true, 0.0, 1.0, 10000.0};
        const Form ddpm {128, false, 1.0, 1.0, 10000.0};
        QTest::newRow("SD's embedding") << sd << 1.0f << sd << u"correct"_s << QString();
        QTest::newRow("DDPM's embedding") << ddpm << 1.0f << ddpm << u"correct"_s << QString();
        QTest::newRow("AuraFlow's scale 1000") << Form {256, true, 0.0, 1000.0, 10000.0} << 1.0f
                                               << Form {256, true, 0.0, 1000.0, 10000.0} << u"correct"_s << QString();
        // PRX: timesteps k / 1000 scaled by 1000, the rows' positions k at scale 1.
        QTest::newRow("timesteps k/1000 at scale 1000")
            << Form {256, true, 0.0, 1000.0, 10000.0} << 0.001f << Form {256, true, 0.0, 1.0, 10000.0} << u"correct"_s
            << QString();
        QTest::newRow("sines first, cos first declared")
            << Form {256, false, 0.0, 1.0, 10000.0} << 1.0f << Form {256, true, 0.0, 1.0, 10000.0} << u"mistake"_s
            << u"flip-sin-to-cos"_s;
        QTest::newRow("cos first, sines first declared")
            << sd << 1.0f << Form {320, false, 0.0, 1.0, 10000.0} << u"mistake"_s << u"flip-sin-to-cos"_s;
        QTest::newRow("shift 1, shift 0 declared")
            << Form {256, true, 1.0, 1.0, 10000.0} << 1.0f << Form {256, true, 0.0, 1.0, 10000.0} << u"mistake"_s
            << u"freq-shift"_s;
        QTest::newRow("shift 0, shift 1 declared")
            << Form {128, false, 0.0, 1.0, 10000.0} << 1.0f << ddpm << u"mistake"_s << u"freq-shift"_s;
        QTest::newRow("max_period 500, 10000 declared")
            << Form {256, true, 0.0, 1.0, 500.0} << 1.0f << Form {256, true, 0.0, 1.0, 10000.0} << u"mistake"_s
            << u"base"_s;
    }
    void declaredForm()
    {
        QFETCH(Form, table);
        QFETCH(float, step);
        QFETCH(Form, declared);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        const QString path = written(u"declared.npy"_s, table, 96, step);
        QVERIFY(!path.isEmpty());
        QStringList flags = formFlags(declared);
        flags.removeAt(flags.indexOf(u"--encoding"_s) + 1);
        flags.removeAll(u"--encoding"_s);
        const QJsonObject o = checked(QStringList {path, u"--expect"_s, u"sinusoidal"_s} + flags);
        QVERIFY2(o[u"verdict"_s].toString() == verdict, shown(o));
        if (!mistake.isEmpty())
            QVERIFY2(o[u"mistakes"_s].toArray().contains(mistake), shown(o));
        // Undeclared, a table of a published form is never a mistake.
        if (table.scale == 1.0 && table.maxPeriod == 10000.0) {
            const QJsonObject undeclared = checked({path});
            QVERIFY2(undeclared[u"verdict"_s].toString() != u"mistake"_s, shown(undeclared));
        }
    }

    // A diffusers config declares its class's timestep embedding; Whisper's config its encoder's
    // sinusoids() (modeling_whisper.py: log(10000) / (channels // 2 - 1), freq-shift 1, in float32).
    void expectConfig_data()
    {
        QTest::addColumn<Form>("table");
        QTest::addColumn<QStringList>("config");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("words");
        const QString configs = QStringLiteral(POSENC_CONFIGS) + u"/"_s;
        const QStringList ddpm {configs + u"diffusers/ddpm-cat-256-unet.json"_s};
        const QStringList wan {configs + u"diffusers/wan2.1-t2v-1.3b-transformer.json"_s};
        const QStringList whisper {configs + u"whisper-small.json"_s, u"--layer-type"_s, u"encoder"_s};
        QTest::newRow("DDPM's UNet2DModel") << Form {128, false, 1.0, 1.0, 10000.0} << ddpm << 0 << u"correct"_s;
        QTest::newRow("DDPM's config, cos first")
            << Form {128, true, 1.0, 1.0, 10000.0} << ddpm << 1 << u"flip-sin-to-cos"_s;
        QTest::newRow("Wan 2.1's transformer") << Form {256, true, 0.0, 1.0, 10000.0} << wan << 0 << u"correct"_s;
        QTest::newRow("Wan's config, shift 1") << Form {256, true, 1.0, 1.0, 10000.0} << wan << 1 << u"freq-shift"_s;
        QTest::newRow("Wan's config, 128 channels")
            << Form {128, true, 0.0, 1.0, 10000.0} << wan << 1 << u"d-model"_s;
        QTest::newRow("Whisper's encoder") << Form {768, false, 1.0, 1.0, 10000.0} << whisper << 0 << u"correct"_s;
        QTest::newRow("Whisper's config, the paper's frequencies")
            << Form {768, false, 0.0, 1.0, 10000.0} << whisper << 1 << u"freq-shift"_s;
    }
    void expectConfig()
    {
        QFETCH(Form, table);
        QFETCH(QStringList, config);
        QFETCH(int, exitCode);
        QFETCH(QString, words);
        const QString path = written(u"config.npy"_s, table, 200);
        const QJsonObject o = checked(QStringList {path, u"--expect-config"_s} + config);
        QVERIFY2(o[u"exit"_s].toInt() == exitCode, shown(o));
        if (exitCode == 2) {
            QVERIFY2(o[u"stderr"_s].toString().contains(words), shown(o));
            return;
        }
        if (exitCode == 0)
            QCOMPARE(o[u"verdict"_s].toString(), words);
        else
            QVERIFY2(o[u"mistakes"_s].toArray().contains(words), shown(o));
    }

    // A config posenc cannot read as a timestep embedding: one line naming the key or class, exit 2.
    void configRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("words");
        QTest::newRow("a class without a row")
            << QByteArray(R"({"_class_name": "AutoencoderKL"})") << u"_class_name: must be a diffusers class"_s;
        QTest::newRow("freq_dim not a number")
            << QByteArray(R"({"_class_name": "WanTransformer3DModel", "freq_dim": "abc"})") << u"freq_dim"_s;
        QTest::newRow("block_out_channels empty")
            << QByteArray(R"({"_class_name": "UNet2DModel", "block_out_channels": []})") << u"block_out_channels"_s;
        QTest::newRow("a Fourier time embedding")
            << QByteArray(R"({"_class_name": "UNet2DModel", "time_embedding_type": "fourier"})") << u"fourier"_s;
        QTest::newRow("freq_shift past half the channels")
            << QByteArray(R"({"_class_name": "UNet2DModel", "block_out_channels": [128], "freq_shift": 64})")
            << u"freq_shift"_s;
        QTest::newRow("flip_sin_to_cos a string")
            << QByteArray(R"({"_class_name": "UNet2DConditionModel", "flip_sin_to_cos": "yes"})")
            << u"flip_sin_to_cos"_s;
    }
    void configRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, words);
        const QString config = m_dir.filePath(u"config.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(json);
        file.close();
        const QString path = written(u"refused.npy"_s, Form {256, true, 0.0, 1.0, 10000.0}, 20);
        const QJsonObject o = checked({path, u"--expect-config"_s, config});
        QCOMPARE(o[u"exit"_s].toInt(), 2);
        const QString err = o[u"stderr"_s].toString();
        QVERIFY2(err.contains(words), qPrintable(err));
        QCOMPARE(err.count(u'\n'), 1);
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliTimestep)
} // namespace tst_clitimestep
#include "tst_clitimestep.moc"
