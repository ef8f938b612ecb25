// posenc check on RoPE cos|sin caches in half precision whose attention factor a config gives
// explicitly (issue 56, item 3: a verdict is a promise both ways). The amplitude read from a bfloat16
// or float16 cache is known only to its cells' rounding: the check never snaps it to a round number
// (1.59 for 1.5888) the cells do not bear out, and compares the cells with a tolerance that includes
// its uncertainty. The caches are tests/data/ropehalf (make_rope_half_fixture.py): transformers'
// formulas (src/transformers/modeling_rope_utils.py, _compute_yarn_parameters: attention_factor as
// given; _compute_longrope_parameters likewise; linear, dynamic and llama3, whose cache a port
// multiplies by its own factor) computed by torch in float32 and by numpy in float64, then cast to
// the half dtype. Each is never `mistake` undeclared, its amplitude read within the cells' rounding;
// under --expect-config of its config it is `correct` where the rope_type reads attention_factor
// (yarn, longrope), `attention-factor` where it does not (transformers multiplies by 1); a config of
// another attention_factor names attention-factor with both values.
#include "CliCheckRun.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <optional>

namespace tst_cliropehalf {
using namespace Qt::StringLiterals;

namespace {

const QString kData = QStringLiteral(POSENC_ROPE_HALF);

QJsonArray cases()
{
    QFile file(kData + u"/cases.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll())[u"cases"_s].toArray();
}

QString tensorOf(const QJsonObject &c)
{
    return kData + u"/caches.safetensors:"_s + c[u"tensor"_s].toString();
}

} // namespace

class TestCliRopeHalf : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // The case's config, its attention_factor replaced by `factor` where that is given.
    QString config(const QJsonObject &c, std::optional<double> factor = std::nullopt)
    {
        QJsonObject config = c[u"config"_s].toObject();
        QString name = c[u"tensor"_s].toString();
        if (factor) {
            QJsonObject rope = config[u"rope_scaling"_s].toObject();
            rope[u"attention_factor"_s] = *factor;
            config[u"rope_scaling"_s] = rope;
            name += u"-wrong"_s;
        }
        return CliCheck::write(m_dir, name + u".json"_s, QJsonDocument(config).toJson());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(cases().size(), 20);
    }

    void cache_data()
    {
        QTest::addColumn<QJsonObject>("c");
        for (const QJsonValue &v : cases()) {
            const QJsonObject c = v.toObject();
            QTest::newRow(qPrintable(c[u"tensor"_s].toString() + u", attention_factor "_s
                                     + QString::number(c[u"attention_factor"_s].toDouble())))
                << c;
        }
    }
    void cache()
    {
        QFETCH(QJsonObject, c);
        const double factor = c[u"attention_factor"_s].toDouble();
        const CliCheck::Checked undeclared = CliCheck::checkFile(tensorOf(c), {});
        // A reading fitted to the bfloat16 cells (the torch float32 dynamic cache reads as linear of
        // factor 1.0000016 at rope_theta 31082, the grown base rounded) misses a cell near a zero of
        // cos by 1.2e-4, within bfloat16's rounding at the amplitude: unknown, not mistake.
        QVERIFY2(undeclared.verdict() != u"mistake"_s && !undeclared.verdict().isEmpty(), qPrintable(undeclared.shown));
        // The amplitude read, in the digits the cells pin it to: within their rounding of the factor.
        const auto said = [](const CliCheck::Checked &run, const QString &before) {
            const QRegularExpressionMatch m
                = QRegularExpression(QRegularExpression::escape(before) + u" ([0-9.]+)"_s).match(run.diagnosis());
            return m.hasMatch() ? m.captured(1).toDouble() : 0.0;
        };
        const double read = said(undeclared, u"attention factor"_s);
        QVERIFY2(std::fabs(read / factor - 1.0) < 0x1p-8, qPrintable(undeclared.shown));
        const CliCheck::Checked declared = CliCheck::checkFile(tensorOf(c), {u"--expect-config"_s, config(c)});
        if (c[u"reads_attention_factor"_s].toBool()) {
            QVERIFY2(declared.exit == 0 && declared.verdict() == u"correct"_s, qPrintable(declared.shown));
        } else {
            // transformers multiplies linear's, dynamic's and llama3's cos and sin by 1, whatever the
            // config's attention_factor: the port's factor is the mistake, with both values.
            QVERIFY2(declared.exit == 1 && declared.mistakes() == QJsonArray {u"attention-factor"_s},
                     qPrintable(declared.shown));
            QVERIFY2(declared.diagnosis().contains(u"where 1 is declared"_s), qPrintable(declared.shown));
        }
        // Another attention factor declared: the mistake named, with both values.
        const double wrong = std::round(factor * 1.07 * 1e4) / 1e4;
        const CliCheck::Checked other = CliCheck::checkFile(tensorOf(c), {u"--expect-config"_s, config(c, wrong)});
        QVERIFY2(other.exit == 1 && other.mistakes() == QJsonArray {u"attention-factor"_s}, qPrintable(other.shown));
        if (c[u"reads_attention_factor"_s].toBool())
            QVERIFY2(other.diagnosis().contains(u"where %1 is declared"_s.arg(QString::number(wrong))),
                     qPrintable(other.shown));
        QVERIFY2(std::fabs(said(other, u"the attention factor is"_s) / factor - 1.0) < 0x1p-8, qPrintable(other.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRopeHalf)
} // namespace tst_cliropehalf
#include "tst_cliropehalf.moc"
