// posenc check on MPT's key biases [1, H, 1, L] whose keys are counted as if the query stood past
// the last key: a bias built over max_seq_len and cut to its first L keys where its last L belong
// (mosaicml/examples#259, the fix attn_bias[:, :, :, -s_k:]). Each row is computed here from
// get_slopes (tests/support/AlibiReference.h, ofirpress/attention_with_linear_biases) in float64 as
// build_mpt_alibi_tensor's slope × (j − c), then rounded once to float32.
#include "CliRun.h"
#include "NpyBytes.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace tst_clikeybiasoffset {
using namespace Qt::StringLiterals;

class TestCliKeyBiasOffset : public QObject
{
    Q_OBJECT

private slots:
    void keysCountedOff_data()
    {
        QTest::addColumn<int>("queryAt");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("said");
        const QStringList declared {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"8"_s};
        // MPT's own row of 40 keys ends at the query, key 39.
        QTest::newRow("MPT, the query at the last key") << 39 << declared << u"correct"_s << QString() << u"MPT"_s;
        QTest::newRow("cut to the first 40 of 512 keys, declared")
            << 511 << declared << u"mistake"_s << u"position-offset"_s << u"as if the query stood at position 511"_s;
        // Alone, the first 40 keys of a row of 512 may be a slice of a faithful bias: no mistake,
        // the offset a guess.
        QTest::newRow("cut to the first 40 of 512 keys")
            << 511 << QStringList() << u"unknown"_s << QString() << u"the first 40 keys of a longer row"_s;
    }
    void keysCountedOff()
    {
        QFETCH(int, queryAt);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        QFETCH(QString, said);
        std::vector<double> bias;
        for (const double m : alibiref::slopes(8)) {
            for (int j = 0; j < 40; ++j)
                bias.push_back(m * double(j - queryAt));
        }
        const QString file = m_dir.filePath(u"mpt.npy"_s);
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(npy({1, 8, 1, 40}, bias));
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

private:
    QTemporaryDir m_dir;
};

POSENC_TEST_GUILESS_MAIN(TestCliKeyBiasOffset)
} // namespace tst_clikeybiasoffset
#include "tst_clikeybiasoffset.moc"
