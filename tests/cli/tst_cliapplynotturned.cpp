// `posenc check --apply X Y` where no pair is turned (issue 56, held-out set 8's F3 and B11:
// microsoft/SeerAttention#37, whose fix `k_compressed = apply_rotary_pos_emb_single(...)` keeps the
// rotated keys the buggy code dropped): Y equal to X, Y = c X (every row at position 0 at an
// attention factor c), rows of Y left unturned among turned ones, and heads of a [B, H, L, D] query
// left unturned. Against a reference declared in full each is the mistake rope-not-applied; without
// one, Y equal to X is said and left unknown (a NoPE layer turns nothing either). The turned rows
// are written here in float64 from transformers' modeling_llama.py (apply_rotary_pos_emb:
// q * cos + rotate_half(q) * sin, pairs (i, i + d/2)) and modeling_rope_utils.py
// (_compute_default_rope_parameters: inv_freq = 1 / base^(2i / d)). And X and Y that tell nothing:
// rows 0 in both (a rotation turns a zero vector to zero at any angle) and arrays of no rows.
#include "CliRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <random>
#include <vector>

namespace tst_cliapplynotturned {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kRows = 64, kDim = 128;
constexpr double kTheta = 1e6; // Qwen3's rope_theta, SeerAttention's base model

// X random normal, [heads · rows, dim].
std::vector<double> randomX(std::int64_t heads)
{
    std::mt19937 engine(2808);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> x(std::size_t(heads * kRows * kDim));
    for (double &v : x)
        v = double(float(normal(engine)));
    return x;
}

// Row r of a head turned at position r (or `at`): rotate_half's pairs (i, i + d/2), angle
// r / theta^(2i / d).
void turn(const std::vector<double> &x, std::vector<double> &y, std::int64_t first, std::int64_t r,
          std::int64_t at = -1)
{
    const std::int64_t h = kDim / 2, row = (first + r) * kDim;
    for (std::int64_t j = 0; j < kDim; ++j) {
        const std::int64_t i = j % h;
        const double angle = double(at < 0 ? r : at) / std::pow(kTheta, double(2 * i) / double(kDim));
        const double other = j < h ? -x[std::size_t(row + j + h)] : x[std::size_t(row + j - h)];
        y[std::size_t(row + j)] = x[std::size_t(row + j)] * std::cos(angle) + other * std::sin(angle);
    }
}

struct Checked
{
    int exit = -1;
    QJsonObject json;
    QString text;
};

} // namespace

class CliApplyNotTurned : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    const QStringList m_declared {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"1000000"_s, u"--head-dim"_s, u"128"_s};

    Checked run(const std::vector<std::int64_t> &shape, const std::vector<double> &x, const std::vector<double> &y,
                const QStringList &flags)
    {
        const QString xf = m_dir.filePath(u"x.npy"_s), yf = m_dir.filePath(u"y.npy"_s);
        for (const auto &[file, values] : {std::pair(xf, &x), std::pair(yf, &y)}) {
            QFile f(file);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(npy(shape, *values)) < 0)
                return {};
        }
        const CliRun::Run j = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xf, yf, u"--json"_s} + flags);
        const CliRun::Run t = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xf, yf} + flags);
        return {j.exitCode, QJsonDocument::fromJson(j.out.toUtf8()).object(), t.out + t.err};
    }

private slots:
    // B11: the keys cached before RoPE, Y = X. Declared: rope-not-applied; undeclared: unknown, said.
    void unturnedIsNamedAgainstTheReference()
    {
        const std::vector<double> x = randomX(1);
        const Checked declared = run({kRows, kDim}, x, x, m_declared);
        QCOMPARE(declared.json[u"verdict"_s].toString(), u"mistake"_s);
        QVERIFY2(declared.json[u"mistakes"_s].toArray().contains(u"rope-not-applied"_s), qPrintable(declared.text));
        QVERIFY2(declared.text.contains(u"SeerAttention#37"_s)
                     && declared.text.contains(u"mistakes: rope-not-applied"_s),
                 qPrintable(declared.text));
        // M-RoPE against a declared prompt: the same mistake (transformers' get_rope_index turns every
        // text token after the first).
        const Checked mrope = run({kRows, kDim}, x, x, {u"--encoding"_s, u"mrope"_s, u"--prompt"_s, u"text:64"_s});
        QVERIFY2(mrope.json[u"mistakes"_s].toArray().contains(u"rope-not-applied"_s), qPrintable(mrope.text));
        const Checked alone = run({kRows, kDim}, x, x, {});
        QCOMPARE(alone.json[u"verdict"_s].toString(), u"unknown"_s);
        QVERIFY(alone.json[u"mistakes"_s].toArray().isEmpty());
        QVERIFY2(alone.text.contains(u"no pair is turned"_s) && alone.text.contains(u"rope-not-applied"_s),
                 qPrintable(alone.text));
    }

    // Every row at position 0 at an attention factor 1.2: Y = 1.2 X, no pair turned.
    void scaledUnturnedIsNamed()
    {
        const std::vector<double> x = randomX(1);
        std::vector<double> y(x.size());
        for (std::size_t k = 0; k < x.size(); ++k)
            y[k] = 1.2 * x[k];
        const Checked declared = run({kRows, kDim}, x, y, m_declared);
        QVERIFY2(declared.json[u"mistakes"_s].toArray().contains(u"rope-not-applied"_s), qPrintable(declared.text));
        QVERIFY2(declared.text.contains(u"times 1.2"_s), qPrintable(declared.text));
    }

    // Rows 32..63 left as X (their rotation dropped), rows 0..31 turned: named, with or without the
    // reference (row r is at position r under --apply), and not as positions out of order.
    void rowsLeftUnturnedAreNamed()
    {
        const std::vector<double> x = randomX(1);
        std::vector<double> y = x;
        for (std::int64_t r = 0; r < kRows / 2; ++r)
            turn(x, y, 0, r);
        for (const QStringList &flags : {m_declared, QStringList {}}) {
            const Checked c = run({kRows, kDim}, x, y, flags);
            const QJsonArray mistakes = c.json[u"mistakes"_s].toArray();
            // Declared, the mistake; with nothing declared, rows at position id 0 (a padding's) would
            // leave Y as X too: said, and unknown.
            const bool declared = !flags.isEmpty();
            QCOMPARE(c.json[u"verdict"_s].toString(), declared ? u"mistake"_s : u"unknown"_s);
            QVERIFY2(mistakes.contains(u"rope-not-applied"_s) == declared
                         && !mistakes.contains(u"positions-out-of-order"_s),
                     qPrintable(c.text));
            QVERIFY2(c.text.contains(u"rows 32..63 (32 of 64)"_s), qPrintable(c.text));
        }
        // The whole table turned: correct against the reference, nothing of this said.
        std::vector<double> all = x;
        for (std::int64_t r = 0; r < kRows; ++r)
            turn(x, all, 0, r);
        const Checked right = run({kRows, kDim}, x, all, m_declared);
        QCOMPARE(right.json[u"verdict"_s].toString(), u"correct"_s);
    }

    // A [1, 8, L, D] query whose heads 4..7 are left unturned: the heads said, named when declared.
    void headsLeftUnturnedAreSaid()
    {
        constexpr std::int64_t kHeads = 8;
        const std::vector<double> x = randomX(kHeads);
        std::vector<double> y = x;
        for (std::int64_t head = 0; head < kHeads / 2; ++head)
            for (std::int64_t r = 0; r < kRows; ++r)
                turn(x, y, head * kRows, r);
        const Checked declared = run({1, kHeads, kRows, kDim}, x, y, m_declared);
        QCOMPARE(declared.json[u"verdict"_s].toString(), u"mistake"_s);
        QVERIFY2(declared.json[u"mistakes"_s].toArray().contains(u"rope-not-applied"_s), qPrintable(declared.text));
        QVERIFY2(declared.text.contains(u"batch 0, heads 4..7; the other 4 heads turned"_s), qPrintable(declared.text));
        const Checked alone = run({1, kHeads, kRows, kDim}, x, y, {});
        QCOMPARE(alone.json[u"verdict"_s].toString(), u"unknown"_s);
        QVERIFY2(alone.text.contains(u"a rotation applied to a subset of the heads"_s), qPrintable(alone.text));
        const QJsonArray heads = alone.json[u"heads"_s].toArray();
        QCOMPARE(heads.size(), kHeads);
        for (qsizetype h = 0; h < kHeads; ++h)
            QCOMPARE(heads[h].toObject()[u"not_turned"_s].toBool(), h >= kHeads / 2);
    }

    // X and Y 0 in every cell: a zero vector turns to zero at any angle, so nothing says whether a
    // rotation was applied: unknown (exit 7), said, with or without the reference, in one head or
    // many. Before, rope-not-applied against the reference (Y equals X: "no pair is turned").
    void zerosTellNothing()
    {
        for (const std::vector<std::int64_t> &shape : {std::vector<std::int64_t> {kRows, kDim}, {1, 4, kRows, kDim}}) {
            for (const QStringList &flags : {m_declared, QStringList {}}) {
                const std::vector<double> cells(std::size_t((shape.size() == 2 ? 1 : 4) * kRows * kDim), 0.0);
                const Checked c = run(shape, cells, cells, flags);
                QVERIFY2(c.exit == 7 && c.json[u"verdict"_s].toString() == u"unknown"_s, qPrintable(c.text));
                QVERIFY2(c.json[u"mistakes"_s].toArray().isEmpty(), qPrintable(c.text));
                QVERIFY2(c.text.contains(u"turns a zero vector to zero at any angle"_s), qPrintable(c.text));
            }
        }
    }

    // Rows 40..63 of X 0 (so Y's too), the others turned: the zero rows are no evidence either way,
    // and the rest is correct against the reference, the zero rows said; a head of zeros beside
    // turned heads leaves the whole correct. Before: rows 40..63 unread, a mistake.
    void zeroRowsAreNoEvidence()
    {
        std::vector<double> x = randomX(1);
        std::fill(x.begin() + 40 * kDim, x.end(), 0.0);
        std::vector<double> y = x;
        for (std::int64_t r = 0; r < kRows; ++r)
            turn(x, y, 0, r);
        const Checked c = run({kRows, kDim}, x, y, m_declared);
        QVERIFY2(c.exit == 0 && c.json[u"verdict"_s].toString() == u"correct"_s, qPrintable(c.text));
        QVERIFY2(c.text.contains(u"rows 40..63 (24 of 64) are 0 in X and in Y"_s), qPrintable(c.text));
        // Rows 0..39 at 5..44: the offset said (a window without --position-ids: rows after a cache sit
        // there, correct), the zero rows no part of it.
        std::vector<double> shifted = x;
        for (std::int64_t r = 0; r < 40; ++r)
            turn(x, shifted, 0, r, r + 5);
        const Checked off = run({kRows, kDim}, x, shifted, m_declared);
        QVERIFY2(off.json[u"verdict"_s].toString() == u"correct"_s
                     && off.json[u"guessed_mistakes"_s].toArray().isEmpty()
                     && off.json[u"position_offset"_s].toInt() == 5,
                 qPrintable(off.text));
        // Four heads, head 2 all 0: the three turned heads are the verdict.
        std::vector<double> xs = randomX(4);
        std::fill(xs.begin() + 2 * kRows * kDim, xs.begin() + 3 * kRows * kDim, 0.0);
        std::vector<double> ys = xs;
        for (std::int64_t head = 0; head < 4; ++head)
            for (std::int64_t r = 0; r < kRows; ++r)
                turn(xs, ys, head * kRows, r);
        const Checked heads = run({1, 4, kRows, kDim}, xs, ys, m_declared);
        QVERIFY2(heads.exit == 0 && heads.json[u"verdict"_s].toString() == u"correct"_s, qPrintable(heads.text));
        QCOMPARE(heads.json[u"heads"_s].toArray()[2].toObject()[u"verdict"_s].toString(), u"unknown"_s);
    }

    // X or Y of no rows ([0, D], [1, 8, 0, D]): refused in one line naming the file and "no rows",
    // exit 3 as an array of no cells is for a table. Before: correct.
    void noRowsAreRefused()
    {
        for (const std::vector<std::int64_t> &shape : {std::vector<std::int64_t> {0, kDim}, {1, 8, 0, kDim}}) {
            const QString empty = m_dir.filePath(u"empty.npy"_s), full = m_dir.filePath(u"full.npy"_s);
            QFile e(empty), f(full);
            QVERIFY(e.open(QIODevice::WriteOnly | QIODevice::Truncate) && e.write(npy(shape, {})) > 0);
            e.close();
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(npy({kRows, kDim}, randomX(1))) > 0);
            f.close();
            for (const QStringList &pair : {QStringList {empty, empty}, QStringList {full, empty}}) {
                const CliRun::Run r = CliRun::posenc({u"check"_s, u"--apply"_s, pair[0], pair[1]});
                const QString said = pair[0] == empty ? u"--apply X: "_s + empty : u"--apply Y: "_s + empty;
                QVERIFY2(r.exitCode == 3 && r.out.isEmpty() && r.err.count(u'\n') == 1 && r.err.contains(said)
                             && r.err.contains(u"no rows"_s),
                         qPrintable(r.out + r.err));
            }
        }
    }
};

POSENC_TEST_GUILESS_MAIN(CliApplyNotTurned)
} // namespace tst_cliapplynotturned
#include "tst_cliapplynotturned.moc"
