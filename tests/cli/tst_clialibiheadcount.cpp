// posenc check of ALiBi's slopes, [H, L, L] biases and BLOOM's [H, 1, L] key biases whose head count
// is not the declared one (issue 56, item 2). A contiguous run of the declared heads' slopes is what a
// tensor-parallel rank holds (vllm-project/vllm, vllm/model_executor/models/bloom.py, BloomAttention.__init__:
// _get_alibi_slopes(total_num_heads)[tp_rank * num_heads:(tp_rank + 1) * num_heads]): a variant, the
// heads it matches said, never a mistake nor the declared reference itself. The standard slopes of
// another head count, get_slopes(n) where n differs from the declared m and is no run of get_slopes(m),
// are the mistake alibi-head-count, both counts said; non-power-of-two counts follow get_slopes'
// interleave (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py, get_slopes;
// transformers' models/bloom/modeling_bloom.py, build_alibi_tensor): get_slopes(8) is the first 8 of
// get_slopes(12), a run, while get_slopes(6) is no run of get_slopes(12). Every tensor is written here
// from get_slopes in float64.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace tst_clialibiheadcount {
using namespace Qt::StringLiterals;

namespace {

// get_slopes(n) of the ALiBi paper's code: 2^(-8k/P), k = 1..P for the power of two P <= n, then
// get_slopes(2P)[0::2][:n - P].
std::vector<double> getSlopes(std::int64_t n)
{
    std::int64_t p = 1;
    while (2 * p <= n)
        p *= 2;
    std::vector<double> s;
    for (std::int64_t k = 1; k <= p; ++k)
        s.push_back(std::pow(2.0, -8.0 * double(k) / double(p)));
    for (std::int64_t k = 1; std::int64_t(s.size()) < n; k += 2)
        s.push_back(std::pow(2.0, -8.0 * double(k) / double(2 * p)));
    return s;
}

std::vector<double> run(const std::vector<double> &all, std::int64_t first, std::int64_t count)
{
    return {all.begin() + first, all.begin() + first + count};
}

// A causal [H, L, L] bias: m_h (j − i) at and before the query, −inf after it (vLLM's _make_alibi_bias
// under its causal mask).
std::vector<double> causalStack(const std::vector<double> &slopes, std::int64_t length)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t i = 0; i < length; ++i)
            for (std::int64_t j = 0; j < length; ++j)
                v.push_back(j > i ? -std::numeric_limits<double>::infinity() : m * double(j - i));
    return v;
}

// BLOOM's key biases [H, 1, L]: m_h j over the keys (transformers' build_alibi_tensor, batch 1).
std::vector<double> keyBiases(const std::vector<double> &slopes, std::int64_t length)
{
    std::vector<double> v;
    for (const double m : slopes)
        for (std::int64_t j = 0; j < length; ++j)
            v.push_back(m * double(j));
    return v;
}

using CliCheck::Checked;

} // namespace

class TestCliAlibiHeadCount : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

    Checked check(const std::vector<std::int64_t> &shape, const std::vector<double> &values, std::int64_t heads)
    {
        const QString name = u"t%1.npy"_s.arg(m_files++);
        return CliCheck::checkFile(CliCheck::write(m_dir, name, npy(shape, values)),
                                   {u"--expect"_s, u"alibi"_s, u"--heads"_s, QString::number(heads)});
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Slopes [n], causal biases [n, L, L] and key biases [n, 1, L] against m declared heads: a run is a
    // variant naming its heads (a rank's share where it is one of m / n), get_slopes(n) the head-count
    // mistake, anything else alibi-slopes.
    void headCountAgainstDeclared_data()
    {
        QTest::addColumn<std::int64_t>("declared");
        QTest::addColumn<std::vector<double>>("slopes");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QStringList>("words");
        const std::vector<double> s32 = getSlopes(32), s12 = getSlopes(12);
        QTest::newRow("rank 1 of 4: heads 9..16 of 32")
            << std::int64_t(32) << run(s32, 8, 8) << u"variant"_s << QString()
            << QStringList {u"heads 9..16 of the 32 declared"_s, u"tensor-parallel rank's share, rank 1 of 4"_s};
        QTest::newRow("rank 0 of 2: heads 1..16 of 32")
            << std::int64_t(32) << run(s32, 0, 16) << u"variant"_s << QString()
            << QStringList {u"heads 1..16 of the 32 declared"_s, u"rank 0 of 2"_s};
        QTest::newRow("heads 5..12 of 32: a run, no rank's share")
            << std::int64_t(32) << run(s32, 4, 8) << u"variant"_s << QString()
            << QStringList {u"heads 5..12 of the 32 declared"_s, u"no tensor-parallel rank's share"_s};
        QTest::newRow("get_slopes(8): heads 1..8 of 12")
            << std::int64_t(12) << getSlopes(8) << u"variant"_s << QString()
            << QStringList {u"heads 1..8 of the 12 declared"_s, u"also get_slopes(8)"_s};
        QTest::newRow("heads 9..12 of 12: the interleave's")
            << std::int64_t(12) << run(s12, 8, 4) << u"variant"_s << QString()
            << QStringList {u"heads 9..12 of the 12 declared"_s, u"rank 2 of 3"_s};
        QTest::newRow("get_slopes(16) declared 32")
            << std::int64_t(32) << getSlopes(16) << u"mistake"_s << u"alibi-head-count"_s
            << QStringList {u"get_slopes(16)"_s, u"32 heads are declared"_s};
        QTest::newRow("get_slopes(64) declared 32")
            << std::int64_t(32) << getSlopes(64) << u"mistake"_s << u"alibi-head-count"_s
            << QStringList {u"get_slopes(64)"_s, u"32 heads are declared"_s};
        QTest::newRow("get_slopes(6) declared 12")
            << std::int64_t(12) << getSlopes(6) << u"mistake"_s << u"alibi-head-count"_s
            << QStringList {u"get_slopes(6)"_s, u"12 heads are declared"_s};
        QTest::newRow("get_slopes(12) declared 16") << std::int64_t(16) << s12 << u"mistake"_s << u"alibi-head-count"_s
                                                    << QStringList {u"get_slopes(12)"_s, u"16 heads are declared"_s};
        std::vector<double> scaled = run(s32, 8, 8);
        for (double &m : scaled)
            m *= 0.9;
        QTest::newRow("8 slopes of no count, declared 32")
            << std::int64_t(32) << scaled << u"mistake"_s << u"alibi-slopes"_s << QStringList {u"8 slopes"_s};
    }

    void headCountAgainstDeclared()
    {
        QFETCH(std::int64_t, declared);
        QFETCH(std::vector<double>, slopes);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        QFETCH(QStringList, words);
        const auto n = std::int64_t(slopes.size());
        const std::int64_t length = 24;
        const QList<std::pair<std::vector<std::int64_t>, std::vector<double>>> tensors {
            {{n}, slopes},
            {{n, length, length}, causalStack(slopes, length)},
            {{n, 1, length}, keyBiases(slopes, length)}};
        for (const auto &[shape, values] : tensors) {
            const Checked c = check(shape, values, declared);
            const QString shown = u"shape [%1]: "_s.arg(shape.size()) + c.shown;
            QVERIFY2(c.verdict() == verdict, qPrintable(shown));
            QVERIFY2(c.exit == (verdict == u"variant"_s ? 5 : 1), qPrintable(shown));
            QVERIFY2(mistake.isEmpty() ? c.mistakes().isEmpty() : c.mistakes() == QJsonArray {mistake},
                     qPrintable(shown));
            // The slopes' own words: the bias says them of its heads.
            if (shape.size() == 1 || verdict == u"variant"_s || mistake == u"alibi-head-count"_s)
                for (const QString &w : words)
                    QVERIFY2(c.diagnosis().contains(w), qPrintable(w + u" in "_s + shown));
        }
    }

    // The declared count's own slopes stay correct, as slopes and as the bias: the run rule is for
    // fewer heads only.
    // A stack of get_slopes(16) declared 32 heads: each slice equals head h of 16's bias, the stack
    // does not equal the declared reference; the reference said is get_slopes(32) (it said "equals:
    // the declared reference (alibi-bias, head 1 of 16 ...)" under its mistake).
    void headCountStackSaysNoEquality()
    {
        const std::vector<double> slopes = getSlopes(16);
        const QString file = CliCheck::write(m_dir, u"stack16.npy"_s, npy({16, 16, 16}, causalStack(slopes, 16)));
        const CliRun::Run text = CliRun::posenc({u"check"_s, file, u"--expect"_s, u"alibi"_s, u"--heads"_s, u"32"_s});
        QVERIFY2(text.exitCode == 1 && text.out.contains(u"verdict: mistake (alibi-head-count)"_s),
                 qPrintable(text.out));
        QVERIFY2(!text.out.contains(u"equals:"_s) && text.out.contains(u"reference: get_slopes(32)"_s),
                 qPrintable(text.out));
    }

    void declaredCountIsCorrect_data()
    {
        QTest::addColumn<std::int64_t>("heads");
        for (const std::int64_t h : {8, 12, 32})
            QTest::addRow("%lld heads", qlonglong(h)) << h;
    }

    void declaredCountIsCorrect()
    {
        QFETCH(std::int64_t, heads);
        const std::vector<double> slopes = getSlopes(heads);
        Checked c = check({heads}, slopes, heads);
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        c = check({heads, 16, 16}, causalStack(slopes, 16), heads);
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        c = check({heads, 1, 16}, keyBiases(slopes, 16), heads);
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliAlibiHeadCount)
} // namespace tst_clialibiheadcount
#include "tst_clialibiheadcount.moc"
