// The batch on the command line by its rows' lengths (--batch, --packed): the rows' length, max_len,
// is the longest row's, as a tokenizer pads with padding=True, unless --max-len or a prefill's
// --cache gives it; a preset's context is no batch's width.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QTemporaryDir>
#include <QTest>

#include <utility>
#include <vector>

namespace tst_clibatchrows {
using namespace Qt::StringLiterals;

class TestCliBatchRows : public QObject
{
    Q_OBJECT

private slots:
    // A batch given by its lengths is padded to its longest row, as a tokenizer pads with
    // padding=True: `export position-ids --batch left:5,8,3` drew 1,024 columns (131,072 with a
    // preset's context) of which 8 held a token. The ids are transformers' (attention_mask.cumsum(-1)
    // − 1, the padding 1), written here from the lengths; --max-len, or a prefill's --cache, still
    // sets the rows' length.
    void aBatchIsAsLongAsItsLongestRow()
    {
        QTemporaryDir dir;
        const auto table = [&](const QStringList &flags) {
            const QString path = dir.filePath(u"ids.npy"_s);
            const auto run
                = CliRun::posenc(QStringList {u"table"_s, u"position-ids"_s, u"-o"_s, path, u"--force"_s} + flags);
            return std::pair {run, CliRun::readNpy(path)};
        };
        const std::vector<qint64> lengths {5, 8, 3};
        for (const QStringList &model : {QStringList {}, QStringList {u"--preset"_s, u"llama-3-1-8b"_s}}) {
            const auto [run, ids] = table(model + QStringList {u"--batch"_s, u"left:5,8,3"_s});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QCOMPARE(ids.rows, 3);
            QCOMPARE(ids.cols, 8);
            for (qint64 r = 0; r < 3; ++r) {
                const qint64 padding = 8 - lengths[std::size_t(r)];
                for (qint64 c = 0; c < 8; ++c)
                    QCOMPARE(ids.at(r, c), c < padding ? 1.0f : float(c - padding));
            }
        }
        const auto [packedRun, packed] = table({u"--packed"_s, u"3,4,2/5,4"_s});
        QVERIFY2(packedRun.exitCode == 0, qPrintable(packedRun.err));
        QCOMPARE(packed.rows, 2);
        QCOMPARE(packed.cols, 9);
        const auto [wideRun, wide] = table({u"--batch"_s, u"right:5,8,3"_s, u"--max-len"_s, u"12"_s});
        QVERIFY2(wideRun.exitCode == 0, qPrintable(wideRun.err));
        QCOMPARE(wide.cols, 12);
        const auto [cacheRun, decoded] = table({u"--batch"_s, u"left:5,8,3"_s, u"--cache"_s, u"8"_s});
        QVERIFY2(cacheRun.exitCode == 0, qPrintable(cacheRun.err));
        QVERIFY2(decoded.cols > 8, qPrintable(QString::number(decoded.cols)));
        // Beside a mask the mask's columns are the rows' length: the batch is refused for being a
        // second batch, not the mask for missing a max_len the user never gave.
        QVERIFY(CliRun::writeNpy(dir.filePath(u"mask.npy"_s), 3, 12, std::vector<float>(36, 1.0f)));
        const auto [both, none]
            = table({u"--batch"_s, u"left:5,8,3"_s, u"--attention-mask"_s, dir.filePath(u"mask.npy"_s)});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(u"one batch at a time"_s) && !both.err.contains(u"max_len's"_s),
                 qPrintable(both.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliBatchRows)
} // namespace tst_clibatchrows
#include "tst_clibatchrows.moc"
