// posenc check --apply and RoPE's vectors on the classes once misread (issue 56; held-out sets 10
// and 11, the reviewer r29a): a decode step's one or two rows, every pair at one frequency (LeetCUDA#289),
// rows at declared ids away from 0, the heads' axis from a config, --json's diagnosis, an inv_freq
// vector without a declared width, dynamic NTK's sentences, and per-row --prompt refusals.
//
// The references, written here in float64: transformers' models/llama/modeling_llama.py,
// apply_rotary_pos_emb (q * cos + rotate_half(q) * sin) and GPT-J's rotate_every_two
// (modeling_gptj.py); inv_freq of modeling_rope_utils.py's _compute_default_rope_parameters,
// 1 / base^(arange(0, dim, 2) / dim); _compute_dynamic_ntk_parameters' grown base,
// base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2)).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

namespace tst_cliapply30 {
using namespace Qt::StringLiterals;

namespace {

constexpr double kTheta = 10000.0;

std::vector<double> normal(std::size_t count, unsigned seed)
{
    std::mt19937 engine(seed);
    std::normal_distribution<double> draw;
    std::vector<double> x(count);
    for (double &v : x)
        v = double(float(draw(engine)));
    return x;
}

// Row `row` of `dim` columns of x turned into y at `position`, pair i at frequency w(i), rotate_half's
// pairs (i, i + dim/2) or rotate_every_two's (2i, 2i + 1).
template<class W>
void turn(const std::vector<double> &x, std::vector<double> &y, std::int64_t row, std::int64_t dim, double position,
          W w, bool half = true)
{
    for (std::int64_t i = 0; i < dim / 2; ++i) {
        const double angle = position * w(i);
        const std::int64_t a = row * dim + (half ? i : 2 * i), b = row * dim + (half ? i + dim / 2 : 2 * i + 1);
        y[std::size_t(a)] = x[std::size_t(a)] * std::cos(angle) - x[std::size_t(b)] * std::sin(angle);
        y[std::size_t(b)] = x[std::size_t(b)] * std::cos(angle) + x[std::size_t(a)] * std::sin(angle);
    }
}

auto defaultRope(std::int64_t dim)
{
    return [dim](std::int64_t i) { return std::pow(kTheta, -2.0 * double(i) / double(dim)); };
}

} // namespace

class TestCliApply30 : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    CliCheck::Checked apply(const std::vector<std::int64_t> &shape, const std::vector<double> &x,
                            const std::vector<double> &y, const QStringList &flags)
    {
        const QString xs = CliCheck::write(m_dir, u"x.npy"_s, npy(shape, x));
        const QString ys = CliCheck::write(m_dir, u"y.npy"_s, npy(shape, y));
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xs, ys, u"--json"_s, u"--quiet"_s} + flags);
        return {run.exitCode, QJsonDocument::fromJson(run.out.toUtf8()).object(), run.out + run.err};
    }

    QString ids(const std::vector<double> &values)
    {
        return CliCheck::write(m_dir, u"ids.npy"_s, npy({std::int64_t(values.size())}, values));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // A decode step's query [B, H, 1, D] (and [B, H, 2, D]) at the cache's length: compared at its
    // --position-ids with the reference declared; at another position, position-offset; with nothing
    // declared, unknown, the row's limits said. It was refused "at least 3 positions". Two rows with
    // no ids and the reference declared are judged as three or more are: at p, p + 1 a window of the
    // sequence, correct with its positions said; `step` apart, their positions out of order.
    void decodeStep_data()
    {
        QTest::addColumn<qint64>("length");
        QTest::addColumn<double>("turnedAt");
        QTest::addColumn<bool>("declared");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<bool>("withIds");
        QTest::addColumn<qint64>("step"); // the positions' step from row to row
        QTest::newRow("one row at its id") << qint64(1) << 37.0 << true << u"correct"_s << QString() << true << 1ll;
        QTest::newRow("one row one short") << qint64(1) << 36.0 << true << u"mistake"_s << u"position-offset"_s << true
                                           << 1ll;
        QTest::newRow("one row undeclared") << qint64(1) << 37.0 << false << u"unknown"_s << QString() << true << 1ll;
        QTest::newRow("two rows at their ids") << qint64(2) << 37.0 << true << u"correct"_s << QString() << true << 1ll;
        QTest::newRow("two rows one ahead") << qint64(2) << 38.0 << true << u"mistake"_s << u"position-offset"_s
                                            << true << 1ll;
        QTest::newRow("two rows, no ids, 37..38") << qint64(2) << 37.0 << true << u"correct"_s << QString() << false
                                                  << 1ll;
        QTest::newRow("two rows, no ids, 37 and 40")
            << qint64(2) << 37.0 << true << u"mistake"_s << u"positions-out-of-order"_s << false << 3ll;
        QTest::newRow("two rows, no ids, undeclared") << qint64(2) << 37.0 << false << u"unknown"_s << QString()
                                                      << false << 1ll;
    }
    void decodeStep()
    {
        QFETCH(qint64, length);
        QFETCH(double, turnedAt);
        QFETCH(bool, declared);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        QFETCH(bool, withIds);
        QFETCH(qint64, step);
        constexpr std::int64_t heads = 4, dim = 32;
        const std::vector<double> x = normal(std::size_t(heads * length * dim), 30);
        std::vector<double> y(x.size());
        for (std::int64_t h = 0; h < heads; ++h)
            for (std::int64_t l = 0; l < length; ++l)
                turn(x, y, h * length + l, dim, turnedAt + double(step * l), defaultRope(dim));
        std::vector<double> at;
        for (std::int64_t l = 0; l < length; ++l)
            at.push_back(37.0 + double(l));
        QStringList flags;
        if (withIds)
            flags += {u"--position-ids"_s, ids(at)};
        else // the ids' count says which axis holds the heads; without them, --apply-heads
            flags += {u"--apply-heads"_s, QString::number(heads)};
        if (declared)
            flags += {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
        const CliCheck::Checked run = apply({1, heads, length, dim}, x, y, flags);
        QCOMPARE(run.verdict(), verdict);
        QVERIFY2(mistake.isEmpty() ? run.mistakes().isEmpty() : run.mistakes().contains(mistake),
                 qPrintable(run.shown));
        QVERIFY2(!run.diagnosis().isEmpty(), qPrintable(run.shown));
        if (!declared)
            QVERIFY2(run.diagnosis().contains(u"cannot tell the frequencies from the position"_s),
                     qPrintable(run.shown));
        if (!withIds && verdict == u"correct"_s) { // the window read: rows 0..1 at 37..38
            const QJsonObject head = run.json[u"heads"_s].toArray().at(0).toObject();
            const QJsonArray runs = head[u"positions"_s].toArray();
            const QJsonArray first = runs.at(0).toArray(); // [row, position, count]
            const bool read = runs.size() == 1 && first.at(0).toInt() == 0 && first.at(1).toInt() == 37
                && first.at(2).toInt() == 2 && head[u"position_offset"_s].toInt() == 37;
            QVERIFY2(read, qPrintable(run.shown));
        }
    }

    // A batched decode step whose other rows the kernel never wrote (ml-explore/mlx#3494: Y 0 there):
    // against the declared reference cells-overwritten, undeclared not a verdict on the rotation.
    void zeroRowsAreNoRotation()
    {
        constexpr std::int64_t batch = 2, heads = 2, dim = 32;
        const std::vector<double> x = normal(std::size_t(batch * heads * dim), 3494);
        std::vector<double> y(x.size(), 0.0);
        for (std::int64_t h = 0; h < heads; ++h)
            turn(x, y, h, dim, 5.0, defaultRope(dim));
        const QString at = CliCheck::write(m_dir, u"ids.npy"_s, npy({batch, 1}, {5.0, 5.0}));
        const std::vector<std::int64_t> shape {batch, heads, 1, dim};
        const CliCheck::Checked declared
            = apply(shape, x, y, {u"--position-ids"_s, at, u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s});
        QVERIFY2(CliCheck::named(declared.json, {u"cells-overwritten"_s}), qPrintable(declared.shown));
        const CliCheck::Checked undeclared = apply(shape, x, y, {u"--position-ids"_s, at});
        QCOMPARE(undeclared.verdict(), u"unknown"_s);
    }

    // Y whose rows from L/2 are damaged (noise, or one row repeated): against the declared reference a
    // mistake whose sentences hold for the rows they speak of: the rows read at no position named, the
    // largest error of the rows compared said within its row's rounding, and nothing said of the
    // damaged rows' positions (it was "row 48 holds position 0 ... restart at position 0, as documents
    // packed", of noise, and "the other 48 rows r hold position r" with rows 32..47 among them).
    void damagedRowsAreSaidAsThemselves_data()
    {
        QTest::addColumn<bool>("repeated");
        QTest::addColumn<QString>("unread");
        QTest::newRow("noise") << false << u"rows 32..63 (32 of the 64) are at no position"_s;
        QTest::newRow("a repeated row") << true << u"rows 33..63 (31 of the 64) are at no position"_s;
    }
    void damagedRowsAreSaidAsThemselves()
    {
        QFETCH(bool, repeated);
        QFETCH(QString, unread);
        constexpr std::int64_t rows = 64, dim = 128;
        const std::vector<double> x = normal(std::size_t(rows * dim), 56);
        std::vector<double> y(x.size());
        for (std::int64_t r = 0; r < rows; ++r)
            turn(x, y, r, dim, double(r), defaultRope(dim));
        const std::vector<double> noise = normal(x.size(), 58);
        for (std::int64_t r = rows / 2; r < rows; ++r)
            std::copy_n((repeated ? y.begin() + rows / 2 * dim : noise.begin() + r * dim), dim, y.begin() + r * dim);
        const CliCheck::Checked run
            = apply({rows, dim}, x, y, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s});
        QCOMPARE(run.verdict(), u"mistake"_s);
        const QString said = run.diagnosis();
        QVERIFY2(said.contains(unread) && said.contains(u"within that row's rounding"_s), qPrintable(run.shown));
        QVERIFY2(!said.contains(u"holds position"_s) && !said.contains(u"restart"_s) && !said.contains(u"other 4"_s),
                 qPrintable(run.shown));
    }

    // Every pair turned by one angle (LeetCUDA#289: powf(theta, token_idx / (N * 2)) in ints, so
    // inv_freq = theta^0 = 1): no layout swap the angles cannot show, and declared, the mistake named.
    void oneFrequencyIsNoLayoutSwap()
    {
        constexpr std::int64_t rows = 64, dim = 32;
        const std::vector<double> x = normal(std::size_t(rows * dim), 289);
        std::vector<double> y(x.size());
        for (std::int64_t r = 0; r < rows; ++r)
            turn(
                x, y, r, dim, double(r), [](std::int64_t) { return 1.0; }, false);
        const CliCheck::Checked undeclared = apply({rows, dim}, x, y, {});
        QVERIFY2(undeclared.verdict() != u"mistake"_s && undeclared.verdict() != u"correct"_s,
                 qPrintable(undeclared.shown));
        QVERIFY2(undeclared.diagnosis().contains(u"one angle"_s), qPrintable(undeclared.shown));
        const CliCheck::Checked declared
            = apply({rows, dim}, x, y,
                    {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--rope-layout"_s, u"interleaved"_s});
        QVERIFY2(CliCheck::named(declared.json, {u"rope-frequencies-equal"_s}), qPrintable(declared.shown));
        for (const CliCheck::Checked *run : {&undeclared, &declared})
            QVERIFY2(!run->mistakes().contains(u"rope-layout-swapped"_s), qPrintable(run->shown));
    }

    // Rows at declared ids 5..20, each turned at its id by RoFormer's theta 10000: correct, as rows at 0..15 are.
    void rowsAtTheirIdsAwayFromZero()
    {
        constexpr std::int64_t rows = 16, dim = 64;
        const std::vector<double> x = normal(std::size_t(rows * dim), 520);
        std::vector<double> y(x.size()), at;
        for (std::int64_t r = 0; r < rows; ++r) {
            turn(x, y, r, dim, double(r + 5), defaultRope(dim));
            at.push_back(double(r + 5));
        }
        const CliCheck::Checked run = apply({rows, dim}, x, y, {u"--position-ids"_s, ids(at)});
        QCOMPARE(run.verdict(), u"correct"_s);
    }

    // A config's num_attention_heads picks the heads' axis as --apply-heads does; every many-head result
    // has a diagnosis in --json.
    void configPicksTheHeadsAxis()
    {
        constexpr std::int64_t batch = 2, length = 12, heads = 4, dim = 16;
        const std::vector<double> x = normal(std::size_t(batch * length * heads * dim), 7);
        std::vector<double> y(x.size());
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t l = 0; l < length; ++l)
                for (std::int64_t h = 0; h < heads; ++h)
                    turn(x, y, (b * length + l) * heads + h, dim, double(l), defaultRope(dim));
        const QString config = CliCheck::write(
            m_dir, u"config.json"_s,
            R"({"model_type": "llama", "num_attention_heads": 4, "num_key_value_heads": 4, "hidden_size": 64,
                "head_dim": 16, "rope_theta": 10000.0, "max_position_embeddings": 2048, "num_hidden_layers": 2})");
        const std::vector<std::int64_t> shape {batch, length, heads, dim};
        const CliCheck::Checked run = apply(shape, x, y, {u"--config"_s, config});
        QCOMPARE(run.verdict(), u"correct"_s);
        QCOMPARE(run.json[u"tensor_layout"_s].toString(), u"[B, L, H, D]"_s);
        const CliCheck::Checked heads4 = apply(shape, x, y, {u"--apply-heads"_s, u"4"_s});
        QCOMPARE(heads4.verdict(), u"correct"_s);
        QVERIFY2(heads4.diagnosis().contains(u"head 0"_s), qPrintable(heads4.shown));
    }

    // An inv_freq of 32 frequencies with no width declared is rotary_dim 64: its theta 20000 named, no
    // rotary-dim; with --head-dim 128 declared, rotary-dim is the mistake.
    void invFreqWidthIsTheVectors()
    {
        std::vector<double> inv;
        for (int i = 0; i < 32; ++i)
            inv.push_back(std::pow(20000.0, -2.0 * i / 64.0));
        const QByteArray bytes = npy({32}, inv);
        const CliCheck::Checked alone
            = CliCheck::check(m_dir, bytes, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s});
        QVERIFY2(CliCheck::named(alone.json, {u"rope-theta"_s}) && !alone.mistakes().contains(u"rotary-dim"_s),
                 qPrintable(alone.shown));
        const CliCheck::Checked wide = CliCheck::check(
            m_dir, bytes, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"128"_s});
        QVERIFY2(CliCheck::named(wide.json, {u"rotary-dim"_s}), qPrintable(wide.shown));
    }

    // Dynamic NTK's base grown for a 3000-token prefill, declared at 4096: the length named, the two bases
    // printed alike; declared at 2048 (no growth), no "grows 10000 to 10000".
    void dynamicSentences()
    {
        constexpr double factor = 2.0, original = 2048.0, dim = 64.0;
        const double base = kTheta * std::pow(factor * 3000.0 / original - (factor - 1.0), dim / (dim - 2.0));
        std::vector<double> inv;
        for (int i = 0; i < 32; ++i)
            inv.push_back(std::pow(base, -2.0 * i / dim));
        const QStringList dynamic {u"--expect"_s,      u"rope"_s, u"--rope-type"_s,        u"dynamic"_s,
                                   u"--rope-factor"_s, u"2"_s,    u"--original-max-len"_s, u"2048"_s,
                                   u"--head-dim"_s,    u"64"_s,   u"--rope-theta"_s,       u"10000"_s};
        const CliCheck::Checked at4096
            = CliCheck::check(m_dir, npy({32}, inv), dynamic + QStringList {u"--max-len"_s, u"4096"_s});
        QVERIFY2(CliCheck::named(at4096.json, {u"dynamic-length"_s}), qPrintable(at4096.shown));
        QVERIFY2(at4096.diagnosis().contains(u"3000"_s) && !at4096.diagnosis().contains(u"31082.236"_s),
                 qPrintable(at4096.shown));
        const CliCheck::Checked at2048
            = CliCheck::check(m_dir, npy({32}, inv), dynamic + QStringList {u"--max-len"_s, u"2048"_s});
        QCOMPARE(at2048.verdict(), u"mistake"_s);
        QVERIFY2(!at2048.diagnosis().contains(u"to 10000"_s), qPrintable(at2048.shown));
    }

    // One token's heads, a decode step's [B, H, 1, D] with nothing declared: every head turned alike is
    // what a token's heads are, not one sequence at one position; never a mistake. Declared as
    // heads, unknown as one row; a sequence of 40 rows all at 255 names positions-constant.
    void oneTokensHeadsAreNoSequence()
    {
        constexpr std::int64_t heads = 8, dim = 64, length = 40;
        const std::vector<double> x = normal(std::size_t(heads * dim), 41);
        std::vector<double> y(x.size());
        for (std::int64_t h = 0; h < heads; ++h)
            turn(x, y, h, dim, 37.0, defaultRope(dim));
        const CliCheck::Checked token = apply({1, heads, 1, dim}, x, y, {});
        QVERIFY2(token.verdict() == u"unknown"_s && token.exit == 7, qPrintable(token.shown));
        const std::vector<double> xs = normal(std::size_t(length * dim), 43);
        std::vector<double> ys(xs.size());
        for (std::int64_t l = 0; l < length; ++l)
            turn(xs, ys, l, dim, 255.0, defaultRope(dim));
        const CliCheck::Checked one = apply({length, dim}, xs, ys, {u"--expect"_s, u"rope"_s});
        // Unknown (one token's heads turn alike too): positions-constant a guess, not a mistake found.
        QVERIFY2(one.verdict() == u"unknown"_s && one.mistakes().isEmpty()
                     && one.json[u"guessed_mistakes"_s].toArray() == QJsonArray {u"positions-constant"_s},
                 qPrintable(one.shown));
        QVERIFY2(one.diagnosis().contains(u"turned at position 255"_s), qPrintable(one.shown));
    }

    // Heads checked each on its own: one head's mistake is the whole's, another head's guess stays a
    // guess (JSON's guessed_mistakes), never carried into "mistakes".
    void oneHeadsGuessIsNoOtherHeadsMistake()
    {
        constexpr std::int64_t heads = 2, dim = 64, length = 40;
        const std::vector<double> x = normal(std::size_t(heads * length * dim), 53);
        std::vector<double> y(x.size());
        for (std::int64_t l = 0; l < length; ++l) {
            turn(x, y, l, dim, 255.0, defaultRope(dim)); // head 0: every row at 255, a guess
            turn(x, y, length + l, dim, double(l), [](std::int64_t i) { return std::pow(20000.0, -2.0 * i / 64.0); });
        }
        const CliCheck::Checked both = apply({1, heads, length, dim}, x, y,
                                             {u"--apply-heads"_s, u"2"_s, u"--expect"_s, u"rope"_s, u"--rope-theta"_s,
                                              u"10000"_s});
        QVERIFY2(both.verdict() == u"mistake"_s && both.mistakes().contains(u"rope-theta"_s), qPrintable(both.shown));
        QVERIFY2(!both.mistakes().contains(u"positions-constant"_s), qPrintable(both.shown));
        QVERIFY2(both.json[u"guessed_mistakes"_s].toArray().contains(u"positions-constant"_s), qPrintable(both.shown));
    }

    // A chunk after a cache (rows at 100..139) with its ids and the reference declared: every row compared
    // at its id, correct; one row off, position-offset. Its frequencies alone are read from no 40 rows
    // that far out, which was unknown.
    void aChunkAfterTheCacheAtItsIds()
    {
        constexpr std::int64_t dim = 64, length = 40, start = 100;
        const std::vector<double> x = normal(std::size_t(length * dim), 47);
        std::vector<double> y(x.size()), at;
        for (std::int64_t l = 0; l < length; ++l) {
            turn(x, y, l, dim, double(start + l), defaultRope(dim));
            at.push_back(double(start + l));
        }
        const QStringList reference {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
        const CliCheck::Checked chunk
            = apply({length, dim}, x, y, QStringList {u"--position-ids"_s, ids(at)} + reference);
        QVERIFY2(chunk.verdict() == u"correct"_s, qPrintable(chunk.shown));
        QVERIFY2(chunk.diagnosis().contains(u"at positions 100..139"_s), qPrintable(chunk.shown));
        at[7] += 1.0;
        const CliCheck::Checked off
            = apply({length, dim}, x, y, QStringList {u"--position-ids"_s, ids(at)} + reference);
        QVERIFY2(off.verdict() == u"mistake"_s && off.mistakes().contains(u"position-offset"_s), qPrintable(off.shown));
    }

    // transformers' rotation computed in float32 as LlamaRotaryEmbedding does (inv_freq = 1 / base^(2i /
    // d) in float32, angle = inv_freq * position in float32, cos and sin of it, q * cos + rotate_half(q) *
    // sin) at rope_theta 5e5 and 1e6 over 24..40 rows: a few rows of slow pairs pin no frequencies, which
    // was read as LongRoPE's factors per pair and named attention-factor-missing and positions-out-of-order.
    // Never a mistake undeclared; correct against the reference declared.
    void slowThetaFewRowsIsNoMistake()
    {
        constexpr std::int64_t dim = 128;
        for (const double theta : {500000.0, 1000000.0}) {
            for (const std::int64_t length : {24, 32, 40}) {
                for (unsigned seed = 0; seed < 3; ++seed) {
                    const std::vector<double> x = normal(std::size_t(length * dim), 100 + seed);
                    std::vector<double> y(x.size());
                    for (std::int64_t l = 0; l < length; ++l)
                        for (std::int64_t i = 0; i < dim / 2; ++i) {
                            const float w = 1.0f / std::pow(float(theta), float(2 * i) / float(dim));
                            const float angle = float(l) * w, c = std::cos(angle), s = std::sin(angle);
                            const auto a = std::size_t(l * dim + i), b = std::size_t(l * dim + i + dim / 2);
                            y[a] = double(float(x[a]) * c - float(x[b]) * s);
                            y[b] = double(float(x[b]) * c + float(x[a]) * s);
                        }
                    const QString tag = u"theta %1, %2 rows, seed %3: "_s.arg(theta).arg(length).arg(seed);
                    const CliCheck::Checked read = apply({length, dim}, x, y, {});
                    QVERIFY2(read.verdict() != u"mistake"_s, qPrintable(tag + read.shown));
                    const CliCheck::Checked declared = apply({length, dim}, x, y,
                                                             {u"--expect"_s, u"rope"_s, u"--rope-theta"_s,
                                                              QString::number(theta), u"--head-dim"_s, u"128"_s});
                    QVERIFY2(declared.verdict() == u"correct"_s, qPrintable(tag + declared.shown));
                }
            }
        }
    }

    // Per-row prompts with one --batch length for two rows: refused in one line naming --batch.
    void promptRowsBatchLengths()
    {
        const QString file = CliCheck::write(m_dir, u"mids.npy"_s, npy({3, 2, 14}, std::vector<double>(84, 0.0)));
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, u"--position-ids"_s, file, u"--batch"_s, u"left:14"_s, u"--prompt"_s,
                              u"text:5,image:1x4x6,text:3;text:2,image:1x4x4,text:4"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--batch left:14 gives 1 length for 2 rows"_s) && run.err.count(u'\n') == 1,
                 qPrintable(run.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliApply30)
} // namespace tst_cliapply30
#include "tst_cliapply30.moc"
