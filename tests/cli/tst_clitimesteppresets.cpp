// The presets of diffusion models' timestep embedders against the models' own code (r35's item 11):
// each preset's table against the rows torch computed with the reference functions, recorded by
// tests/data/make_timestep_fixture.py (diffusers' get_timestep_embedding, as SD 1.5's and SDXL's
// UNet2DConditionModel and Wan's WanTimeTextImageEmbedding call it through Timesteps, and Black
// Forest Labs' timestep_embedding with its time_factor 1000), within what float32 angles allow; and a
// diffusers config read by every command's --config as --expect-config reads it (one reader,
// ModelConfig::check), its table the preset's.
#include "CliRun.h"
#include "ConfigCheckRun.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace tst_clitimesteppresets {
using namespace Qt::StringLiterals;
using ConfigCheckRun::Checked;
using ConfigCheckRun::checkJson;
using ConfigCheckRun::fixture;

namespace {

QJsonObject recordedTable(const QString &preset)
{
    QFile file(QStringLiteral(POSENC_TIMESTEPS));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    for (const QJsonValue &t : QJsonDocument::fromJson(file.readAll())[u"tables"_s].toArray()) {
        if (t[u"preset"_s].toString() == preset)
            return t.toObject();
    }
    return {};
}

// How far a float32 computation of sin or cos(t·w) may be from another's: each forms w from a float32
// exponent and its exp (|ln w| units of 2^-24 of w, a few more for the exp and the division) and the
// angle t·w in float32 (half a unit of the angle), then the sine's own rounding. cellTolerance's
// (|ln w| + 4)·2^-22 of the angle and a unit of the value, twice for the two computations.
double allowance(double t, double w)
{
    return 2.0 * ((std::fabs(std::log(w)) + 4.0) * std::ldexp(1.0, -22) * t * w + std::ldexp(1.0, -23));
}

} // namespace

class TestCliTimestepPresets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Every recorded row of every timestep preset: posenc table --preset's within the allowance, and
    // each channel where the reference code puts it (a flip or a shift moves every row past it).
    void presetIsTheModelsCode_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char *name : {"sd-1-5-timestep", "sdxl-timestep", "flux-1-dev-timestep", "wan-2-1-timestep"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void presetIsTheModelsCode()
    {
        QFETCH(QString, preset);
        const QJsonObject recorded = recordedTable(preset);
        QVERIFY2(!recorded.isEmpty(), qPrintable(preset));
        const QString path = m_dir.filePath(preset + u".npy"_s);
        const CliRun::Run run
            = CliRun::posenc({u"table"_s, u"pe"_s, u"--preset"_s, preset, u"-o"_s, path, u"--force"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const CliRun::Table t = CliRun::readNpy(path);
        QCOMPARE(t.rows, qint64(recorded[u"length"_s].toInt()));
        QCOMPARE(t.cols, qint64(recorded[u"channels"_s].toInt()));
        const QJsonArray w = recorded[u"frequencies"_s].toArray();
        const qint64 half = t.cols / 2;
        QCOMPARE(qint64(w.size()), half);
        const QJsonObject rows = recorded[u"rows"_s].toObject();
        QVERIFY(rows.size() >= 4);
        double worst = 0.0;
        for (auto it = rows.begin(); it != rows.end(); ++it) {
            const qint64 row = it.key().toLongLong();
            const QJsonArray values = it.value().toArray();
            QCOMPARE(qint64(values.size()), t.cols);
            for (qint64 c = 0; c < t.cols; ++c) {
                const double frequency = w[c % half].toDouble();
                const double error = std::fabs(double(t.at(row, c)) - values[c].toDouble());
                worst = std::max(worst, error / allowance(double(row), frequency));
                QVERIFY2(error <= allowance(double(row), frequency),
                         qPrintable(u"%1 row %2 column %3: %4 where the code gives %5"_s.arg(preset)
                                        .arg(row)
                                        .arg(c)
                                        .arg(t.at(row, c))
                                        .arg(values[c].toDouble())));
            }
        }
        qInfo("%s: worst cell at %.3f of its allowance", qPrintable(preset), worst);
    }

    // The presets' tables are read as the published form they are, and the recorded output of the
    // code is correct under the preset declared.
    void presetTableIsCorrectUndeclared()
    {
        const QString path = m_dir.filePath(u"sdxl.npy"_s);
        QCOMPARE(CliRun::posenc({u"table"_s, u"pe"_s, u"--preset"_s, u"sdxl-timestep"_s, u"-o"_s, path, u"--force"_s})
                     .exitCode,
                 0);
        const CliRun::Run run = CliRun::posenc({u"check"_s, path, u"--json"_s, u"--quiet"_s});
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QVERIFY2(run.exitCode == 0 && o[u"verdict"_s].toString() == u"correct"_s, qPrintable(run.out + run.err));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"get_timestep_embedding"_s), qPrintable(run.out));
    }

    // A diffusers config is a model config to every command: check --config describes its one layer
    // type, timestep, with the class's numbers; table --config writes the preset's table; describe
    // --config runs; --expect-config reads the same (tst_clitimestep).
    void diffusersConfigIsAModelConfig_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("channels");
        QTest::newRow("SD 1.5's UNet") << u"diffusers/sd-v1-5-unet"_s << u"sd-1-5-timestep"_s << 320;
        QTest::newRow("SDXL's UNet") << u"diffusers/sdxl-base-1.0-unet"_s << u"sdxl-timestep"_s << 320;
        QTest::newRow("Wan 2.1's transformer")
            << u"diffusers/wan2.1-t2v-1.3b-transformer"_s << u"wan-2-1-timestep"_s << 256;
    }
    void diffusersConfigIsAModelConfig()
    {
        QFETCH(QString, config);
        QFETCH(QString, preset);
        QFETCH(int, channels);
        const Checked c = checkJson(fixture(config));
        QVERIFY2(c.run.exitCode == 0, qPrintable(c.run.out + c.run.err));
        QCOMPARE(c.layerTypes(), QStringList {u"timestep"_s});
        const QString text = QString::fromUtf8(QJsonDocument(c.layer(u"timestep"_s)).toJson());
        QVERIFY2(text.contains(u"sinusoidal"_s) && text.contains(QString::number(channels)), qPrintable(text));

        const QString byConfig = m_dir.filePath(u"config.npy"_s), byPreset = m_dir.filePath(u"preset.npy"_s);
        const QStringList small {u"--max-len"_s, u"64"_s, u"--angles"_s, u"exact"_s, u"--force"_s};
        const CliRun::Run fromConfig = CliRun::posenc(
            QStringList {u"table"_s, u"pe"_s, u"--config"_s, fixture(config), u"-o"_s, byConfig} + small);
        QVERIFY2(fromConfig.exitCode == 0, qPrintable(fromConfig.err));
        const CliRun::Run fromPreset
            = CliRun::posenc(QStringList {u"table"_s, u"pe"_s, u"--preset"_s, preset, u"-o"_s, byPreset} + small);
        QVERIFY2(fromPreset.exitCode == 0, qPrintable(fromPreset.err));
        const CliRun::Table a = CliRun::readNpy(byConfig), b = CliRun::readNpy(byPreset);
        QVERIFY(a.rows == 64 && a.cols == channels);
        QVERIFY(a.values == b.values);

        const CliRun::Run describe = CliRun::posenc({u"describe"_s, u"--config"_s, fixture(config)});
        QVERIFY2(describe.exitCode == 0 && !describe.out.isEmpty(), qPrintable(describe.err));
    }

    // A class whose timestep embedding posenc does not know is a problem of its key, as a transformers
    // config's is: one line, exit 2, for check --config as for --expect-config.
    void unknownClassIsAProblemOfItsKey()
    {
        const QString path = m_dir.filePath(u"vae.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"_class_name": "AutoencoderKL", "block_out_channels": [128, 256, 512, 512]})");
        file.close();
        const Checked c = checkJson(path);
        QCOMPARE(c.run.exitCode, 2);
        QVERIFY2(c.run.err.contains(u"_class_name"_s) && c.run.err.contains(u"AutoencoderKL"_s), qPrintable(c.run.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliTimestepPresets)
} // namespace tst_clitimesteppresets
#include "tst_clitimesteppresets.moc"
