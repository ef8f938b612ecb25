// posenc check --apply of a model run in float16 or bfloat16: X and Y rounded to the format, Y
// computed in float32 and rounded or computed in the format (ApplyRotations.h), read and judged
// within the format's rounding, against float64; and wrong rotations in half precision, none of
// them correct.
#include "../support/Sanitizer.h"
#include "ApplyRotations.h"
#include "support/TestMain.h"

#include "check/rope/ApplyCheck.h"

#include <QtTest>

#include <cmath>
#include <random>

namespace tst_applyhalfprecision {
using namespace posenc;
using namespace Qt::StringLiterals;
using namespace applyref;

namespace {

// A wrong rotation in float16 or bfloat16, 256 x 128 at theta 10000, drawn from `seed`: one or two of
// the kinds of halfPrecisionPassesNoWrongRotation, and what was drawn in words. X is the same for
// every draw (applied's seed 47), so two draws of the same kinds and numbers are the same case.
struct WrongRotation
{
    std::vector<int> kinds;
    Rotation rot;
    std::vector<std::int64_t> positions;
    std::vector<std::int64_t> columns; // X's columns exchanged before the rotation
    QStringList what;

    bool sameCase(const WrongRotation &o) const
    {
        return kinds == o.kinds && rot.headDim == o.rot.headDim && rot.table == o.rot.table
            && rot.rotation == o.rot.rotation && rot.col0 == o.rot.col0 && rot.inv == o.rot.inv
            && rot.scaling == o.rot.scaling && rot.sign == o.rot.sign && rot.cosSinSwapped == o.rot.cosSinSwapped
            && positions == o.positions && columns == o.columns;
    }
};

WrongRotation drawnWrong(Format format, int seed)
{
    WrongRotation w;
    std::mt19937 engine(std::uint32_t(1000 + seed + (format == Format::BFloat16 ? 100 : 0)));
    const auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(engine); };
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(engine); };
    constexpr int kKinds = 8;
    std::vector<int> &kinds = w.kinds;
    kinds = {pick(kKinds)};
    if (pick(2) == 1) {
        const int second = (kinds.front() + 1 + pick(kKinds - 1)) % kKinds;
        kinds.push_back(second);
    }
    Rotation &rot = w.rot;
    rot = rotationOf(ropeOf(RopeType::Default), RopeLayout::Half, RopeLayout::Half);
    std::vector<std::int64_t> &positions = w.positions;
    positions = from(0, 256);
    std::vector<std::int64_t> &columns = w.columns;
    QStringList &what = w.what;
    for (const int kind : kinds) {
        switch (kind) {
        case 0: {
            const std::int64_t k = 1 + pick(300);
            positions = from(k, 256);
            what.append(u"from %1"_s.arg(k));
            break;
        }
        case 1: {
            double theta = 0.0;
            const auto nearPublished = [](double t) {
                for (const double published : {1e4, 1.5e5, 5e5, 1e6, 5e6})
                    if (std::fabs(std::log(t / published)) < std::log(1.25))
                        return true;
                return false;
            };
            do
                theta = std::exp(uniform(std::log(300.0), std::log(3e7)));
            while (nearPublished(theta));
            rot.inv = roperef::defaultInv(theta, 128);
            what.append(u"theta %1"_s.arg(theta));
            break;
        }
        case 2: {
            const double c = pick(2) == 0 ? uniform(1.015, 1.5) : uniform(0.5, 0.985);
            rot.scaling *= c;
            what.append(u"amplitude x %1"_s.arg(c));
            break;
        }
        case 3: {
            const auto i = std::size_t(pick(256)), j = (i + 1 + std::size_t(pick(255))) % 256;
            std::swap(positions[i], positions[j]);
            what.append(u"rows %1 and %2 exchanged"_s.arg(i).arg(j));
            break;
        }
        case 4:
            rot.rotation = RopeLayout::Interleaved;
            what.append(u"rotate_every_two"_s);
            break;
        case 5:
            rot.sign = -1.0;
            what.append(u"reversed"_s);
            break;
        case 6: {
            const auto k = std::size_t(pick(16));
            const double change = pick(2) == 0 ? uniform(1.05, 1.5) : uniform(0.6, 0.95);
            rot.inv[k] *= change;
            what.append(u"pair %1's frequency x %2"_s.arg(k).arg(change));
            break;
        }
        default: {
            const std::int64_t i = pick(128), j = (i + 1 + pick(127)) % 128;
            columns = {i, j};
            what.append(u"X's columns %1 and %2 exchanged"_s.arg(i).arg(j));
            break;
        }
        }
    }
    return w;
}

} // namespace

class TestApplyHalfPrecision : public QObject
{
    Q_OBJECT

private slots:
    // X and Y of a model run in float16 or bfloat16 (256 x 128; gpt-oss's yarn 256 x 64): X rounded
    // to the format or not, Y computed in float32 and rounded (numpy's astype, torch's .to) or
    // computed in the format as HF's apply_rotary_pos_emb then does. Read as in float32: the
    // pairing, the rope_type and its parameters, the attention factor, every position, the largest
    // error against float64, correct within the format's rounding, which the result states (float16
    // as stored, bfloat16 from float32 values, as numpy saves it); positions from 7, a swapped
    // layout and exchanged rows named as in float32.
    void halfPrecisionIsRead_data()
    {
        QTest::addColumn<Format>("format");
        QTest::addColumn<RopeType>("type");
        QTest::addColumn<RopeLayout>("table");
        QTest::addColumn<RopeLayout>("rotation");
        QTest::addColumn<bool>("roundX");
        QTest::addColumn<bool>("inFormat");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("exchanged");
        QTest::addColumn<QString>("mistake");
        const RopeLayout half = RopeLayout::Half, two = RopeLayout::Interleaved;
        const RopeType def = RopeType::Default, llama3 = RopeType::Llama3, yarn = RopeType::Yarn;
        for (const Format f : {Format::Float16, Format::BFloat16}) {
            const char *n = f == Format::Float16 ? "float16" : "bfloat16";
            for (const RopeType type : {def, llama3, yarn}) {
                const QByteArray t = typeWord(type).toLatin1();
                QTest::addRow("%s, %s, half", n, t.data())
                    << f << type << half << half << true << false << qint64(0) << false << QString();
                QTest::addRow("%s, %s, interleaved", n, t.data())
                    << f << type << two << two << true << false << qint64(0) << false << QString();
                QTest::addRow("%s, %s, computed in it", n, t.data())
                    << f << type << half << half << true << true << qint64(0) << false << QString();
            }
            QTest::addRow("%s, X float32", n)
                << f << def << half << half << false << false << qint64(0) << false << QString();
            QTest::addRow("%s, interleaved computed in it", n)
                << f << llama3 << two << two << true << true << qint64(0) << false << QString();
            QTest::addRow("%s, from 7", n)
                << f << def << half << half << true << false << qint64(7) << false << QString();
            QTest::addRow("%s, llama3 from 7", n)
                << f << llama3 << half << half << true << true << qint64(7) << false << QString();
            QTest::addRow("%s, half table, rotate_every_two", n)
                << f << def << half << two << true << false << qint64(0) << false << ApplyCheck::kLayoutSwapped;
        }
        // A swapped layout computed in the format, and rows exchanged: named in float16; in bfloat16
        // their angles' table is read as no RoPE's (unknown, never correct: not yet named).
        QTest::newRow("float16, half table, rotate_every_two, computed in it")
            << Format::Float16 << def << half << two << true << true << qint64(0) << false
            << ApplyCheck::kLayoutSwapped;
        QTest::newRow("float16, rows 10 and 11 exchanged") << Format::Float16 << def << half << half << true << false
                                                           << qint64(0) << true << ApplyCheck::kPositionsOutOfOrder;
        QTest::newRow("float16, llama3 rows 10 and 11 exchanged")
            << Format::Float16 << llama3 << two << two << true << true << qint64(0) << true
            << ApplyCheck::kPositionsOutOfOrder;
    }
    void halfPrecisionIsRead()
    {
        QFETCH(Format, format);
        QFETCH(RopeType, type);
        QFETCH(RopeLayout, table);
        QFETCH(RopeLayout, rotation);
        QFETCH(bool, roundX);
        QFETCH(bool, inFormat);
        QFETCH(qint64, offset);
        QFETCH(bool, exchanged);
        QFETCH(QString, mistake);
        const Params p = ropeOf(type);
        std::vector<std::int64_t> positions = from(offset, 256);
        if (exchanged)
            std::swap(positions[10], positions[11]);
        const Rotation rot = rotationOf(p, table, rotation);
        const Applied a = appliedIn(format, roundX, inFormat, rot, positions);
        // A float16 .npy, or bfloat16 values saved as float32 (numpy has no bfloat16).
        const bool bf16 = format == Format::BFloat16;
        ApplyCheck::Declared declared;
        declared.stored = bf16 ? ValueFormat::Float32 : ValueFormat::Float16;
        const auto checked = ApplyCheck::check(a.x, a.y, declared);
        if (const auto *refused = std::get_if<QString>(&checked))
            QFAIL(qPrintable(*refused));
        const ApplyCheck::Result &r = std::get<ApplyCheck::Result>(checked);
        QVERIFY2(mistake.isEmpty() ? r.mistakes.isEmpty() : r.mistakes == QStringList {mistake},
                 qPrintable(r.mistakes.join(u", "_s) + u" | "_s + r.frequencies + u" | "_s + r.diagnosis + u" | "_s
                            + r.notes.join(u" "_s)));
        // An offset alone, no --position-ids: rows after a cache or a sequence off by it, unknown.
        const CheckVerdict offsetAlone
            = mistake == u"position-offset"_s ? CheckVerdict::Unknown : CheckVerdict::Mistake;
        // gpt-oss's YaRN is published in halves only (gpt_oss/torch/model.py, _apply_rotary_emb's
        // torch.chunk): its frequencies turned in consecutive pairs are a variant of it.
        const CheckVerdict faithful = type == RopeType::Yarn && rotation == RopeLayout::Interleaved
            ? CheckVerdict::Variant
            : CheckVerdict::Correct;
        QVERIFY2(r.verdict == (mistake.isEmpty() ? faithful : offsetAlone),
                 qPrintable(r.frequencies + u" | "_s + r.diagnosis + u" | "_s + r.notes.join(u" "_s)));
        QVERIFY(r.precision);
        QCOMPARE(r.precision->format, bf16 ? ValueFormat::BFloat16 : ValueFormat::Float16);
        QCOMPARE(r.precision->fromValues, bf16);
        QCOMPARE(r.table, table);
        QCOMPARE(r.rotation, rotation);
        QVERIFY(r.params);
        QCOMPARE(r.params->rope.type, type);
        QCOMPARE(r.params->rope.theta, p.rope.theta);
        QCOMPARE(r.params->rope.factor, p.rope.factor);
        QCOMPARE(r.params->rope.originalMaxLen, p.rope.originalMaxLen);
        const double unit = bf16 ? 0x1p-8 : 0x1p-11;
        QVERIFY2(std::fabs(r.attentionFactor / roperef::attentionFactor(p) - 1.0) <= 4.0 * unit,
                 qPrintable(QString::number(r.attentionFactor, 'g', 17)));
        if (table != rotation)
            return;
        std::vector<std::int64_t> read;
        for (const ApplyCheck::PositionRun &run : r.positions)
            for (std::int64_t i = 0; i < run.count; ++i)
                read.push_back(run.position + i);
        QCOMPARE(read, positions);
        QCOMPARE(r.deviatingRows, std::int64_t(0));
        // The largest error as float64 computes it, and within a few units of the format.
        const double largest = largestError(a, rot, positions);
        QVERIFY2(std::fabs(r.maxAbsError - largest) <= 1e-9 + 1e-6 * largest,
                 qPrintable(u"%1 against %2"_s.arg(r.maxAbsError).arg(largest)));
        QVERIFY2(largest <= 8.0 * unit * double(a.x.cwiseAbs().maxCoeff()), qPrintable(QString::number(largest)));
    }

    // Wrong rotations in float16 and bfloat16, 256 x 128 at theta 10000 (seeded): positions from k,
    // a theta no published form is near, the amplitude times c (1.5 % to 50 % off: a cell's
    // rounding allows a bfloat16 rotation 1 % off, the median of the amplitudes does not), two rows
    // exchanged, the table's pairing swapped, the rotation reversed, one of the fast pairs' frequency
    // changed, two of X's columns exchanged before the rotation; one or two of them at once. The
    // tolerance widened for the format passes none: never correct.
    void halfPrecisionPassesNoWrongRotation_data()
    {
        QTest::addColumn<Format>("format");
        QTest::addColumn<int>("seed");
        for (const Format f : {Format::Float16, Format::BFloat16}) {
            // A seed that draws an earlier seed's case (the same kinds and numbers: a rotate_every_two
            // or a reversal alone) adds no row: it would check the same X and Y again.
            std::vector<WrongRotation> drawn;
            for (int seed = 0; seed < 12; ++seed) {
                WrongRotation w = drawnWrong(f, seed);
                bool again = false;
                for (const WrongRotation &earlier : drawn)
                    again = again || earlier.sameCase(w);
                if (again)
                    continue;
                drawn.push_back(std::move(w));
                QTest::addRow("%s, %d", f == Format::Float16 ? "float16" : "bfloat16", seed) << f << seed;
            }
        }
    }
    void halfPrecisionPassesNoWrongRotation()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(Format, format);
        QFETCH(int, seed);
        const WrongRotation w = drawnWrong(format, seed);
        const Rotation &rot = w.rot;
        const std::vector<std::int64_t> &positions = w.positions;
        const std::vector<std::int64_t> &columns = w.columns;
        const std::vector<int> &kinds = w.kinds;
        const QStringList &what = w.what;
        Applied a = applied(rot, positions);
        a.x = roundedAll(a.x, format);
        RowMatrixXf turnedX = a.x;
        if (!columns.empty())
            turnedX.col(columns[0]).swap(turnedX.col(columns[1]));
        a.y = turnedIn(turnedX, rot, positions, format);
        qInfo("%s", qPrintable(what.join(u", "_s)));
        const auto checked = ApplyCheck::check(a.x, a.y, {});
        if (const auto *refused = std::get_if<QString>(&checked))
            QFAIL(qPrintable(*refused));
        const ApplyCheck::Result &r = std::get<ApplyCheck::Result>(checked);
        // Rows from k alone are a window of a faithful rotation (rows after a cache): correct, said.
        QVERIFY2(r.verdict != CheckVerdict::Correct || (kinds == std::vector<int> {0} && columns.empty()),
                 qPrintable(what.join(u", "_s) + u": "_s + r.frequencies + u" | "_s + r.diagnosis));
    }

    // x cos + rotate_every_two(x) sin (or rotate_half's) with the minus sign lost, each pair mixed by
    // [[cos, sin], [sin, cos]] (transformers#16298, modeling_flax_gptj.py rotate_every_two), written
    // here in float64 at theta 10000 and rounded to the format, or computed in it (each product and
    // the sum rounded, as turnedIn): no pair turns, each changes length. Against the declared
    // reference (its layout, theta and head_dim; rotary_dim from partial_rotary_factor) it is the
    // mistake rotation-sign-lost, under Llama's full rotate_half, a full interleaved rotation, GPT-J's
    // rotary_dim 64 of 256 and a partial rotate_half, in float32, float16 and bfloat16; undeclared,
    // never correct. The faithful rotation of the same X, rounded alike, stays correct against the
    // same reference: the rule raises no false alarm.
    void aLostSignIsNamed_data()
    {
        QTest::addColumn<Format>("format");
        QTest::addColumn<qint64>("headDim");
        QTest::addColumn<double>("factor");
        QTest::addColumn<RopeLayout>("layout");
        QTest::addColumn<bool>("inFormat");
        const RopeLayout half = RopeLayout::Half, two = RopeLayout::Interleaved;
        for (const Format f : {Format::Float32, Format::Float16, Format::BFloat16}) {
            const char *n = f == Format::Float32 ? "float32" : f == Format::Float16 ? "float16" : "bfloat16";
            QTest::addRow("%s, Llama's rotate_half, 128", n) << f << qint64(128) << 1.0 << half << false;
            QTest::addRow("%s, interleaved, 64", n) << f << qint64(64) << 1.0 << two << false;
            QTest::addRow("%s, GPT-J's 64 of 256", n) << f << qint64(256) << 0.25 << two << false;
            QTest::addRow("%s, rotate_half 64 of 256", n) << f << qint64(256) << 0.25 << half << false;
        }
        QTest::newRow("bfloat16, Llama's rotate_half, computed in it")
            << Format::BFloat16 << qint64(128) << 1.0 << half << true;
        QTest::newRow("float16, GPT-J's 64 of 256, computed in it")
            << Format::Float16 << qint64(256) << 0.25 << two << true;
    }
    void aLostSignIsNamed()
    {
        QFETCH(Format, format);
        QFETCH(qint64, headDim);
        QFETCH(double, factor);
        QFETCH(RopeLayout, layout);
        QFETCH(bool, inFormat);
        const Rotation rot = partial(headDim, factor, 10000.0, layout);
        const std::vector<std::int64_t> positions = from(0, 64);
        Applied a = applied(rot, positions);
        a.x = roundedAll(a.x, format);
        a.y = a.x;
        const auto h = std::int64_t(rot.inv.size());
        const auto in = [&](double v) { return inFormat ? double(rounded(format, float(v))) : v; };
        for (std::int64_t p = 0; p < a.x.rows(); ++p) {
            for (std::int64_t k = 0; k < h; ++k) {
                const bool halves = layout == RopeLayout::Half;
                const std::int64_t i = halves ? k : 2 * k, j = halves ? k + h : i + 1;
                const double angle = double(p) * rot.inv[std::size_t(k)];
                const double c = in(std::cos(angle)), s = in(std::sin(angle));
                const double xi = a.x(p, i), xj = a.x(p, j);
                a.y(p, i) = float(in(in(xi * c) + in(xj * s)));
                a.y(p, j) = float(in(in(xj * c) + in(xi * s)));
            }
        }
        a.y = roundedAll(a.y, format);
        ApplyCheck::Declared declared;
        declared.stored = format == Format::Float16 ? ValueFormat::Float16 : ValueFormat::Float32;
        Params reference = ropeOf(RopeType::Default);
        reference.rope.headDim = headDim;
        reference.rope.partialRotaryFactor = factor;
        reference.rope.layout = layout;
        reference.maxLen = 64;
        declared.reference = reference;
        const ApplyCheck::Result r = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, declared));
        QVERIFY2(r.verdict == CheckVerdict::Mistake && r.mistakes == QStringList {u"rotation-sign-lost"_s},
                 qPrintable(r.mistakes.join(u", "_s) + u" | "_s + r.diagnosis));
        QVERIFY2(r.diagnosis.contains(u"minus sign lost"_s), qPrintable(r.diagnosis));
        QCOMPARE(r.rotation, layout);
        QCOMPARE(r.rotaryDim, 2 * h);
        // Undeclared, only in float32: the half formats' undeclared reading is halfPrecisionPassesNoWrongRotation's.
        if (format == Format::Float32) {
            const ApplyCheck::Result u = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, {}));
            QVERIFY2(u.verdict != CheckVerdict::Correct && !u.mistakes.contains(u"rotation-sign-lost"_s),
                     qPrintable(u.diagnosis));
        }
        // The faithful rotation of the same X, rounded to the format (or computed in it).
        Applied faithful = a;
        faithful.y = turnedIn(a.x, rot, positions, inFormat ? format : Format::Float32);
        faithful.y = roundedAll(faithful.y, format);
        const ApplyCheck::Result f = std::get<ApplyCheck::Result>(ApplyCheck::check(faithful.x, faithful.y, declared));
        QVERIFY2(f.verdict == CheckVerdict::Correct && f.mistakes.isEmpty(),
                 qPrintable(f.mistakes.join(u", "_s) + u" | "_s + f.diagnosis));
    }
};

POSENC_TEST_APPLESS_MAIN(TestApplyHalfPrecision)
} // namespace tst_applyhalfprecision
#include "tst_applyhalfprecision.moc"
