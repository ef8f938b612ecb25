// RoPE tensors of a later chunk of a sequence (a cached decoding step, a chunked prefill:
// position_ids F..F + L - 1) against a reference declared by a reference table or by a preset with
// --apply (issue 56, r36's B5: mistral.rs#251, Phi-3's short factors kept past 4096). transformers'
// LongRoPE takes its list by max(position_ids) + 1 (modeling_rope_utils.py,
// longrope_frequency_update: long_factor where it exceeds original_max_position_embeddings), so a
// chunk at 4096..4351 turns with long_factor; the short list there is `longrope-factor-set` on every
// path. The tensors are written here in float64 from transformers' formulas:
// _compute_longrope_parameters (inv_freq = 1 / (ext_factors * base^(arange(0, dim, 2) / dim)),
// attention_factor sqrt(1 + ln(max / original) / ln(original))), LlamaRotaryEmbedding.forward
// (cos = cat(freqs, freqs).cos() * attention_scaling) and modeling_llama.py's apply_rotary_pos_emb
// (q * cos + rotate_half(q) * sin). Phi-3 mini 128k's factor lists are read from its config
// (tests/data/configs). A declared RoPE cos table or sinusoid from a position past 0 is read at
// that offset wherever it lies within the slowest pair's period.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace tst_clilaterchunk {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kFirst = 4096, kRows = 256, kDim = 96, kHeads = 2;

std::vector<double> factorList(const QString &key)
{
    QFile file(QStringLiteral(POSENC_CONFIGS) + u"/Phi-3-mini-128k-instruct.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::vector<double> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(file.readAll())[u"rope_scaling"_s][key].toArray())
        out.push_back(v.toDouble());
    return out;
}

// inv_freq of a factor list (rope_theta 10000, rotary_dim 96).
std::vector<double> invOf(const std::vector<double> &factors)
{
    std::vector<double> inv;
    for (std::size_t i = 0; i < factors.size(); ++i)
        inv.push_back(1.0 / (factors[i] * std::pow(1e4, double(2 * i) / double(kDim))));
    return inv;
}

// Phi-3 mini 128k: max_position_embeddings 131072 over original 4096.
double attention()
{
    return std::sqrt(1.0 + std::log(131072.0 / 4096.0) / std::log(4096.0));
}

// HF's cos at positions kFirst + r.
QByteArray cosTable(const std::vector<double> &inv)
{
    std::vector<double> cells;
    const auto pairs = std::int64_t(inv.size());
    for (std::int64_t r = 0; r < kRows; ++r)
        for (std::int64_t c = 0; c < 2 * pairs; ++c)
            cells.push_back(attention() * std::cos(double(kFirst + r) * inv[std::size_t(c % pairs)]));
    return npy({kRows, 2 * pairs}, cells);
}

std::vector<double> query()
{
    std::mt19937 random(56);
    std::normal_distribution<double> normal;
    std::vector<double> x(std::size_t(kHeads * kRows * kDim));
    for (double &v : x)
        v = double(float(normal(random)));
    return x;
}

// apply_rotary_pos_emb over [1, H, L, D]: q * cos + rotate_half(q) * sin at positions kFirst + r.
QByteArray rotated(const std::vector<double> &x, const std::vector<double> &inv)
{
    const std::int64_t half = kDim / 2;
    std::vector<double> y(x.size());
    for (std::int64_t h = 0; h < kHeads; ++h) {
        for (std::int64_t r = 0; r < kRows; ++r) {
            const double *q = &x[std::size_t((h * kRows + r) * kDim)];
            double *out = &y[std::size_t((h * kRows + r) * kDim)];
            for (std::int64_t c = 0; c < kDim; ++c) {
                const double angle = double(kFirst + r) * inv[std::size_t(c % half)];
                const double turned = c < half ? -q[c + half] : q[c - half];
                out[c] = attention() * (q[c] * std::cos(angle) + turned * std::sin(angle));
            }
        }
    }
    return npy({1, kHeads, kRows, kDim}, y);
}

QByteArray ids()
{
    std::vector<double> v;
    for (std::int64_t r = 0; r < kRows; ++r)
        v.push_back(double(kFirst + r));
    return npy({kRows}, v);
}

// bfloat16's nearest value (ties to even) of v, as torch's .to(torch.bfloat16) rounds.
double toBFloat16(double v)
{
    const auto f = float(v);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
    float out = 0.0f;
    std::memcpy(&out, &bits, sizeof out);
    return double(out);
}

// A query X of `positions.size()` rows of `dim` and Y = X turned at row r's positions[r] as
// transformers computes it in float64: inv_freq = 1 / theta^(arange(0, dim, 2) / dim)
// (modeling_rope_utils.py, _compute_default_rope_parameters), q * cos + rotate_half(q) * sin
// (modeling_llama.py, apply_rotary_pos_emb) or GPT-J's rotate_every_two (modeling_gptj.py), each
// value rounded to bfloat16 where `bf16` (X before the rotation too, as a bfloat16 model holds it).
std::pair<std::vector<double>, std::vector<double>> turnedAt(const std::vector<qint64> &positions, qint64 dim,
                                                             double theta, bool half, bool bf16)
{
    std::mt19937 random(48);
    std::normal_distribution<double> normal;
    const auto rows = qint64(positions.size());
    std::vector<double> x(std::size_t(rows * dim)), y(x.size());
    for (double &v : x)
        v = bf16 ? toBFloat16(normal(random)) : double(float(normal(random)));
    for (qint64 r = 0; r < rows; ++r) {
        const double *q = &x[std::size_t(r * dim)];
        for (qint64 c = 0; c < dim; ++c) {
            const qint64 k = half ? c % (dim / 2) : c / 2;
            const double angle = double(positions[std::size_t(r)]) * std::pow(theta, -double(2 * k) / double(dim));
            const double other
                = half ? (c < dim / 2 ? -q[c + dim / 2] : q[c - dim / 2]) : (c % 2 == 0 ? -q[c + 1] : q[c - 1]);
            const double v = q[c] * std::cos(angle) + other * std::sin(angle);
            y[std::size_t(r * dim + c)] = bf16 ? toBFloat16(v) : v;
        }
    }
    return {x, y};
}

std::vector<qint64> run(qint64 first, qint64 count)
{
    std::vector<qint64> out;
    for (qint64 p = first; p < first + count; ++p)
        out.push_back(p);
    return out;
}

} // namespace

class TestCliLaterChunk : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString file(const QString &name, const QByteArray &bytes) { return CliCheck::write(m_dir, name, bytes); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCOMPARE(factorList(u"long_factor"_s).size(), std::size_t(kDim / 2));
        QCOMPARE(factorList(u"short_factor"_s).size(), std::size_t(kDim / 2));
    }

    // --expect-table: the reference read as Phi-3's published table from position 4096 (no family
    // reads it from 0), the short list against it named.
    void referenceTableOfLaterChunk()
    {
        const QString reference = file(u"long.npy"_s, cosTable(invOf(factorList(u"long_factor"_s))));
        const QString shortList = file(u"short.npy"_s, cosTable(invOf(factorList(u"short_factor"_s))));
        const QString same = file(u"same.npy"_s, cosTable(invOf(factorList(u"long_factor"_s))));
        const CliCheck::Checked wrong = CliCheck::checkFile(shortList, {u"--expect-table"_s, reference});
        QVERIFY2(CliCheck::named(wrong.json, {u"longrope-factor-set"_s}), qPrintable(wrong.shown));
        QVERIFY2(wrong.diagnosis().contains(u"positions 4096..4351"_s)
                     && wrong.diagnosis().contains(u"max(position_ids) + 1 = 4352"_s),
                 qPrintable(wrong.diagnosis()));
        const CliCheck::Checked right = CliCheck::checkFile(same, {u"--expect-table"_s, reference});
        QVERIFY2(right.exit == 0 && right.verdict() == u"correct"_s, qPrintable(right.shown));
    }

    // Undeclared with the chunk's ids: the RoPE fit reads the rows from position 4096, the ids say
    // the sequence (4352 > 4096), so the short list, a published form at 4096 positions or fewer, is
    // longrope-factor-set; the long list is Phi-3's table.
    void undeclaredAtIds()
    {
        const QString at = file(u"ids_u.npy"_s, ids());
        const CliCheck::Checked wrong = CliCheck::checkFile(
            file(u"short_u.npy"_s, cosTable(invOf(factorList(u"short_factor"_s)))), {u"--position-ids"_s, at});
        QVERIFY2(CliCheck::named(wrong.json, {u"longrope-factor-set"_s}), qPrintable(wrong.shown));
        const CliCheck::Checked right = CliCheck::checkFile(
            file(u"long_u.npy"_s, cosTable(invOf(factorList(u"long_factor"_s)))), {u"--position-ids"_s, at});
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
    }

    // A reference table of Llama 2's cos at positions 1000..1127 (rope_theta 10000, head_dim 128):
    // read as that published form from 1000, and a table at rope_theta 500000 against it rope-theta.
    void referenceTableNamesParameter()
    {
        const auto llama = [](double theta) {
            std::vector<double> cells;
            for (std::int64_t r = 0; r < 128; ++r)
                for (std::int64_t c = 0; c < 128; ++c)
                    cells.push_back(std::cos(double(1000 + r) * std::pow(theta, -double(2 * (c % 64)) / 128.0)));
            return npy({128, 128}, cells);
        };
        const QString reference = file(u"llama2.npy"_s, llama(1e4));
        const CliCheck::Checked wrong
            = CliCheck::checkFile(file(u"llama3.npy"_s, llama(5e5)), {u"--expect-table"_s, reference});
        QVERIFY2(CliCheck::named(wrong.json, {u"rope-theta"_s}), qPrintable(wrong.shown));
        QVERIFY2(wrong.diagnosis().contains(u"positions 1000..1127"_s), qPrintable(wrong.diagnosis()));
    }

    // --apply with the chunk's ids and the preset: the angles' table declared from position 4096.
    void rotationOfLaterChunk()
    {
        const std::vector<double> x = query();
        const QString xs = file(u"x.npy"_s, npy({1, kHeads, kRows, kDim}, x));
        const QString at = file(u"ids.npy"_s, ids());
        const QStringList declared {u"--apply-heads"_s, QString::number(kHeads), u"--position-ids"_s, at,
                                    u"--preset"_s,      u"phi-3-mini-128k"_s,    u"--json"_s,         u"--quiet"_s};
        const QString shortList = file(u"y_short.npy"_s, rotated(x, invOf(factorList(u"short_factor"_s))));
        const CliRun::Run wrong = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xs, shortList} + declared);
        const QJsonObject w = QJsonDocument::fromJson(wrong.out.toUtf8()).object();
        QVERIFY2(wrong.exitCode == 1 && CliCheck::named(w, {u"longrope-factor-set"_s}),
                 qPrintable(wrong.out + wrong.err));
        QVERIFY2(!w[u"mistakes"_s].toArray().contains(u"rope-frequencies-differ"_s), qPrintable(wrong.out));
        const QString longList = file(u"y_long.npy"_s, rotated(x, invOf(factorList(u"long_factor"_s))));
        const CliRun::Run right = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xs, longList} + declared);
        QVERIFY2(right.exitCode == 0, qPrintable(right.out + right.err));
    }

    // A declared RoPE cos table (LlamaRotaryEmbedding.forward: cat(freqs, freqs).cos(), head_dim 64,
    // rope_theta 10000) or the paper's sinusoid (interleaved sin, cos of p 10000^(-2i/d), d 64) whose
    // rows start at a position past 0, up to the slowest pair's period (2 pi 10000^(62/64), about
    // 47100): position-offset with the offset read, a cos table's mirrored slow angle too.
    void declaredTableAtAnyOffset_data()
    {
        QTest::addColumn<bool>("rope");
        QTest::addColumn<qint64>("first");
        for (const qint64 first : {qint64(100), qint64(30000), qint64(40000)}) {
            QTest::addRow("rope-cos from %lld", first) << true << first;
            QTest::addRow("sinusoid from %lld", first) << false << first;
        }
    }
    void declaredTableAtAnyOffset()
    {
        QFETCH(bool, rope);
        QFETCH(qint64, first);
        constexpr std::int64_t rows = 128, d = 64;
        std::vector<double> v;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < d; ++c) {
                const std::int64_t i = rope ? c % (d / 2) : c / 2;
                const double angle = double(first + r) * std::pow(10000.0, -double(2 * i) / double(d));
                v.push_back(rope || c % 2 == 1 ? std::cos(angle) : std::sin(angle));
            }
        // Positions declared from 0: a table from `first` is then the position-offset mistake.
        const QStringList flags = (rope ? QStringList {u"--expect"_s, u"rope-cos"_s, u"--head-dim"_s, u"64"_s}
                                        : QStringList {u"--expect"_s, u"sinusoidal"_s})
            + QStringList {u"--positions"_s, u"0:128"_s};
        const CliCheck::Checked c = CliCheck::checkFile(file(u"offset.npy"_s, npy({rows, d}, v)), flags);
        QVERIFY2(c.exit == 1 && CliCheck::named(c.json, {u"position-offset"_s}), qPrintable(c.shown));
        QVERIFY2(c.all().contains(QString::number(first)), qPrintable(c.shown));
    }
    // --apply X Y of rows after a cache of p0 tokens (a decoding step, a chunk of a chunked prefill):
    // undeclared, or under --expect rope, which declares no positions, rows faithful at p0..p0+n-1
    // are a window read and said, correct (as a RoPE table of a later chunk is); --position-ids
    // judges them: Y at its ids correct, Y elsewhere named with both positions. The wrong ones are
    // real bugs: the decode query turned at position 0 (the offset taken before the cache's
    // concatenation, https://github.com/RobertCsordas/moeut/issues/6), an offset off by one in decode
    // (https://github.com/fla-org/flash-linear-attention/issues/766), each chunk's positions
    // restarting, the rotation dropped (Y == X).
    void rowsAfterCache_data()
    {
        QTest::addColumn<bool>("half");
        QTest::addColumn<double>("theta");
        QTest::addColumn<qint64>("dim");
        QTest::addColumn<std::vector<qint64>>("positions"); // Y's; empty: Y = X at `ids`
        QTest::addColumn<qint64>("idsFrom"); // --position-ids idsFrom..; -1: none
        QTest::addColumn<bool>("bf16");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("says");
        const QStringList none, rope {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
        const QStringList wrongTheta {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"500000"_s};
        const QString window = u"read from Y, not declared"_s, atIds = u"its --position-ids"_s;
        std::vector<qint64> restart = run(100, 16);
        restart.insert(restart.end(), restart.begin(), restart.end());
        QTest::newRow("expect rope, 200..263") << true << 1e4 << qint64(64) << run(200, 64) << qint64(-1) << false
                                               << rope << u"correct"_s << QString() << window + u": a window"_s;
        QTest::newRow("undeclared, 200..263") << true << 1e4 << qint64(64) << run(200, 64) << qint64(-1) << false
                                              << none << u"correct"_s << QString() << u"positions 200..263"_s;
        QTest::newRow("undeclared, 1..64") << true << 1e4 << qint64(64) << run(1, 64) << qint64(-1) << false << none
                                           << u"correct"_s << QString() << u"positions 1..64"_s;
        QTest::newRow("interleaved 5e5, 4095..4158") << false << 5e5 << qint64(128) << run(4095, 64) << qint64(-1)
                                                     << false << none << u"correct"_s << QString() << window;
        QTest::newRow("bf16 5e5, 200..263") << true << 5e5 << qint64(128) << run(200, 64) << qint64(-1) << true << none
                                            << u"correct"_s << QString() << window;
        QTest::newRow("expect 500000, Y at 1e4")
            << true << 1e4 << qint64(64) << run(200, 64) << qint64(-1) << false << wrongTheta << u"mistake"_s
            << u"rope-theta"_s << u"rope_theta 10000 where the declaration gives 500000"_s;
        QTest::newRow("ids 100..131") << true << 1e4 << qint64(64) << run(100, 32) << qint64(100) << false << none
                                      << u"correct"_s << QString() << atIds;
        QTest::newRow("ids and expect rope") << true << 1e4 << qint64(64) << run(100, 32) << qint64(100) << false
                                             << rope << u"correct"_s << QString() << atIds;
        QTest::newRow("bf16 interleaved, ids") << false << 1e4 << qint64(128) << run(100, 32) << qint64(100) << true
                                               << none << u"correct"_s << QString() << atIds;
        QTest::newRow("off by one (fla#766)")
            << true << 1e4 << qint64(64) << run(101, 32) << qint64(100) << false << none << u"mistake"_s
            << u"position-offset"_s << u"declared 100..131, read 101..132"_s;
        QTest::newRow("from 0 (moeut#6)") << true << 1e4 << qint64(64) << run(0, 32) << qint64(100) << false << rope
                                          << u"mistake"_s << u"position-offset"_s << u"declared 100..131, read 0..31"_s;
        QTest::newRow("chunks restart") << true << 1e4 << qint64(64) << restart << qint64(100) << false << none
                                        << u"mistake"_s << u"positions-out-of-order"_s << u"restart at 100"_s;
        QTest::newRow("not turned at ids") << true << 1e4 << qint64(64) << std::vector<qint64>() << qint64(100) << false
                                           << none << u"mistake"_s << u"rope-not-applied"_s << u"position 100"_s;
        QTest::newRow("one row, undeclared") << true << 1e4 << qint64(64) << run(200, 1) << qint64(-1) << false << none
                                             << u"unknown"_s << QString() << u"--position-ids"_s;
    }
    void rowsAfterCache()
    {
        QFETCH(bool, half);
        QFETCH(double, theta);
        QFETCH(qint64, dim);
        QFETCH(std::vector<qint64>, positions);
        QFETCH(qint64, idsFrom);
        QFETCH(bool, bf16);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        QFETCH(QString, says);
        const bool same = positions.empty();
        if (same)
            positions = run(idsFrom, 32);
        auto [x, y] = turnedAt(positions, dim, theta, half, bf16);
        if (same)
            y = x;
        const auto rows = qint64(positions.size());
        QStringList args {
            u"check"_s,  u"--apply"_s, file(u"cx.npy"_s, npy({rows, dim}, x)), file(u"cy.npy"_s, npy({rows, dim}, y)),
            u"--json"_s, u"--quiet"_s};
        if (idsFrom >= 0) {
            std::vector<double> ids;
            for (qint64 r = 0; r < rows; ++r)
                ids.push_back(double(idsFrom + r));
            args << u"--position-ids"_s << file(u"cids.npy"_s, npy({rows}, ids));
        }
        const CliRun::Run checked = CliRun::posenc(args + flags);
        const QJsonObject o = QJsonDocument::fromJson(checked.out.toUtf8()).object();
        QVERIFY2(o[u"verdict"_s].toString() == verdict, qPrintable(checked.out + checked.err));
        QVERIFY2(checked.exitCode
                     == (verdict == u"correct"_s       ? 0
                             : verdict == u"mistake"_s ? 1
                                                       : 7),
                 qPrintable(checked.out));
        if (!mistake.isEmpty())
            QVERIFY2(CliCheck::named(o, {mistake}), qPrintable(checked.out));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(says), qPrintable(o[u"diagnosis"_s].toString()));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliLaterChunk)
} // namespace tst_clilaterchunk
#include "tst_clilaterchunk.moc"
