// posenc check --position-ids on M-RoPE's (Qwen2-VL's) batches, as users and scripts meet it. A pack
// of text documents takes the flattening collator's ids as the collator hands them over, [1, L] (or
// one row's [L]): transformers' Qwen2VLTextModel.forward expands 2-D ids to t, h and w
// (models/qwen2_vl/modeling_qwen2_vl.py: position_ids[None, ...].expand(3, position_ids.shape[0],
// -1)), so they are checked against the collator's restarted ids and their mistakes named as for
// any family; ids of three axes, [3, B, L] or one row's [3, L], keep get_rope_index as the reference.
// The right ids are the reference's own, recorded with torch (tests/data/make_position_ids_fixture.py);
// each mistake's ids are written from its definition here.
#include "PositionIdsRun.h"
#include "support/TestMain.h"

#include <QTemporaryDir>
#include <QTest>

namespace tst_clipositionsmrope {
using namespace Qt::StringLiterals;

using namespace PositionIdsRun;

namespace {

const QString kPack = u"qwen2-vl packed text 5,1,6,2, the collator's [1, L]"_s;

// A float32 .npy of any shape, C order, `values` row by row.
QString writeShaped(const QTemporaryDir &dir, const QString &name, const QList<qint64> &shape,
                    const std::vector<float> &values)
{
    QStringList dims;
    for (const qint64 n : shape)
        dims.append(QString::number(n));
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims.join(u", "_s).toLatin1()
        + (shape.size() == 1 ? "," : "") + "), }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    bytes.append(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

std::vector<float> flat(const std::vector<std::vector<float>> &rows)
{
    std::vector<float> values;
    for (const auto &r : rows)
        values.insert(values.end(), r.begin(), r.end());
    return values;
}

QJsonObject report(const CliRun::Run &run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

} // namespace

class TestCliPositionsMrope : public QObject
{
    Q_OBJECT

private slots:
    void collatorIdsOfATextPackAreCorrect_data()
    {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::newRow("[1, L]") << QList<qint64> {1, 14};
        QTest::newRow("[L]") << QList<qint64> {14};
    }
    // The collator's own ids, recorded with torch: correct, read as one id a token, the reference
    // the collator's (not get_rope_index, which no pack runs).
    void collatorIdsOfATextPackAreCorrect()
    {
        QFETCH(QList<qint64>, shape);
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(kPack);
        const auto run = check(writeShaped(dir, u"ids.npy"_s, shape, flat(idsOf(c))), flagsOf(c), true);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"correct"_s, QStringList {}));
        const QJsonObject o = report(run);
        QCOMPARE(o.value(u"axes"_s).toInt(), 1);
        const QString reference = o.value(u"reference"_s).toString();
        QVERIFY2(reference.contains(u"DataCollatorWithFlattening"_s)
                     && reference.contains(u"Qwen2VLTextModel.forward"_s) && !reference.contains(u"get_rope_index"_s),
                 qPrintable(reference));
    }

    // The expansion the model makes of them, [3, 1, L] or one row's [3, L]: correct, against
    // get_rope_index's layout of each document (text: t, h and w alike from 0).
    void threeAxesKeepGetRopeIndex_data()
    {
        QTest::addColumn<QList<qint64>>("shape");
        QTest::newRow("[3, 1, L]") << QList<qint64> {3, 1, 14};
        QTest::newRow("[3, L]") << QList<qint64> {3, 14};
    }
    void threeAxesKeepGetRopeIndex()
    {
        QFETCH(QList<qint64>, shape);
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(kPack);
        std::vector<float> expanded;
        for (const QJsonValue &axis : c.value(u"expanded"_s).toArray())
            for (const QJsonValue &v : axis.toArray().first().toArray())
                expanded.push_back(float(v.toDouble()));
        const auto run = check(writeShaped(dir, u"ids.npy"_s, shape, expanded), flagsOf(c), true);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"correct"_s, QStringList {}));
        QCOMPARE(report(run).value(u"axes"_s).toInt(), 3);
        QVERIFY2(report(run).value(u"reference"_s).toString().contains(u"get_rope_index"_s),
                 qPrintable(report(run).value(u"reference"_s).toString()));
    }

    // Each mistake of a pack, on the collator's [1, L] and on the model's [3, 1, L].
    void mistakesOfATextPackAreNamed_data()
    {
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<int>("axes");
        for (const int axes : {1, 3}) {
            for (const char *mistake : {"positions-not-restarted", "restarted-without-block-mask", "off-by-one"})
                QTest::newRow(qPrintable(u"%1, %2 axes"_s.arg(QLatin1StringView(mistake)).arg(axes)))
                    << QString::fromLatin1(mistake) << axes;
        }
    }
    void mistakesOfATextPackAreNamed()
    {
        QFETCH(QString, mistake);
        QFETCH(int, axes);
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(kPack);
        QStringList flags = flagsOf(c);
        std::vector<float> row;
        if (mistake == u"positions-not-restarted"_s) {
            for (int k = 0; k < 14; ++k)
                row.push_back(float(k)); // one running count over the four documents
        } else {
            for (const int id : restarted({5, 1, 6, 2}))
                row.push_back(float(id + (mistake == u"off-by-one"_s ? 1 : 0)));
        }
        if (mistake == u"restarted-without-block-mask"_s) // a 2-D mask beside restarted ids
            flags << u"--attention-mask"_s << write(dir, u"mask.npy"_s, {std::vector<float>(14, 1.0f)});
        std::vector<float> values;
        for (int a = 0; a < axes; ++a)
            values.insert(values.end(), row.begin(), row.end());
        const QList<qint64> shape = axes == 1 ? QList<qint64> {1, 14} : QList<qint64> {3, 1, 14};
        const auto run = check(writeShaped(dir, u"ids.npy"_s, shape, values), flags, true);
        QVERIFY2(run.exitCode == 1, qPrintable(run.err + run.out));
        QCOMPARE(verdictOf(run), std::pair(u"mistake"_s, QStringList {mistake}));
        QCOMPARE(report(run).value(u"axes"_s).toInt(), axes);
    }

    // A padded M-RoPE batch is no pack: its reference is get_rope_index's, three ids a token.
    void paddedBatchTakesThreeAxes()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(u"qwen2-vl left padding"_s);
        const auto run = check(
            write(dir, u"ids.npy"_s, std::vector<std::vector<float>>(3, std::vector<float>(12, 0.0f))), flagsOf(c));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --position-ids: must be M-RoPE's [3, B, L] = [3, 3, 12]"_s),
                 qPrintable(run.err));
    }

    // Decode steps that lose rope_deltas from one step on (Blaizzy/mlx-vlm#1619: the first decode
    // step's ids from get_rope_index of its one token, 0, the later ones the bare cache offset, as
    // rope_deltas was never kept), or keep it for a few steps first: cache-offset, the steps said.
    // The reference written here from Qwen2VLModel.get_rope_index and the decode branch of
    // Qwen2VLModel.forward (models/qwen2_vl/modeling_qwen2_vl.py): text 0..4, the image's merged
    // 4 x 6 grid at t 5, h 5..8, w 5..10, text 11..13, then step k at cache_position 32 + k plus
    // rope_deltas (13 + 1 - 32 = -18). Steps that are none of these stay unnamed.
    void deltasLostFromAStep_data()
    {
        QTest::addColumn<QList<float>>("steps");
        QTest::addColumn<QString>("named");
        QTest::addColumn<QString>("said");
        QTest::newRow("reference") << QList<float> {14, 15, 16, 17} << QString() << QString();
        QTest::newRow("step 0 alone, then bare") << QList<float> {0, 33, 34, 35} << u"cache-offset"_s
                                                 << u"decode steps 1-3 (columns 33-35)"_s;
        QTest::newRow("kept, then bare") << QList<float> {14, 15, 34, 35} << u"cache-offset"_s
                                         << u"decode steps 2-3 (columns 34-35)"_s;
        QTest::newRow("another pattern") << QList<float> {0, 33, 7, 35} << QString() << QString();
    }
    void deltasLostFromAStep()
    {
        QFETCH(QList<float>, steps);
        QFETCH(QString, named);
        QFETCH(QString, said);
        std::vector<std::vector<float>> ids(3);
        for (float k = 0; k < 5; ++k)
            for (auto &axis : ids)
                axis.push_back(k);
        for (float y = 0; y < 4; ++y)
            for (float x = 0; x < 6; ++x) {
                ids[0].push_back(5);
                ids[1].push_back(5 + y);
                ids[2].push_back(5 + x);
            }
        for (float k = 11; k < 14; ++k)
            for (auto &axis : ids)
                axis.push_back(k);
        for (const float id : steps)
            for (auto &axis : ids)
                axis.push_back(id);
        QTemporaryDir dir;
        const auto run = check(writeShaped(dir, u"ids.npy"_s, {3, 1, 36}, flat(ids)),
                               {u"--prompt"_s, u"text:5,image:1x8x12,text:3"_s, u"--cache"_s, u"32"_s}, true);
        const auto [verdict, mistakes] = verdictOf(run);
        const QString detail = report(run).value(u"detail"_s).toString();
        if (steps.front() == 14 && steps.back() == 17) {
            QVERIFY2(run.exitCode == 0 && verdict == u"correct"_s, qPrintable(run.err + run.out));
            return;
        }
        QVERIFY2(run.exitCode == 1 && verdict == u"mistake"_s, qPrintable(run.err + run.out));
        if (named.isEmpty()) {
            QVERIFY2(mistakes.isEmpty(), qPrintable(run.out));
            return;
        }
        QVERIFY2(mistakes == QStringList {named} && detail.contains(said) && detail.contains(u"−18 lost"_s),
                 qPrintable(run.out));
        QCOMPARE(detail.contains(u"step 0 at 0, computed alone"_s), steps.front() == 0);
    }

    // A pack whose ids are neither: the shape named with both readings.
    void packOfAnotherShape()
    {
        QTemporaryDir dir;
        const QJsonObject c = fixtureCase(kPack);
        const auto run = check(writeShaped(dir, u"ids.npy"_s, {2, 14}, std::vector<float>(28, 0.0f)), flagsOf(c));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --position-ids: must be [B, L] = [1, 14], the collator's ids, or "
                                    "M-RoPE's [3, B, L] = [3, 1, 14]"_s),
                 qPrintable(run.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliPositionsMrope)
} // namespace tst_clipositionsmrope
#include "tst_clipositionsmrope.moc"
