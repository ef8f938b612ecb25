// posenc check --apply: Y = RoPE(X) written here as HF's modeling_llama.py computes it in float32
// (inv_freq from tests/support/RopeReference.h in float64, rounded to float32; freqs = position *
// inv_freq in float32; cos and sin times attention_scaling; q * cos + rotate_half(q) * sin) or
// GPT-J's rotate_every_two with repeat_interleave'd cos and sin. The check finds the pairing, the
// frequencies, the attention factor and each row's position, and names a layout swapped between
// the table and the apply and positions off by a constant.
#include "support/RopeReference.h"

#include "core/rope/ApplyCheck.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

struct Applied
{
    RowMatrixXf x, y;
};

// X random normal (seed 47); Y X turned at positions[r] with the table built for `table` pairs and
// the rotation turning `rotation` pairs.
Applied applied(const Params &p, const std::vector<std::int64_t> &positions, RopeLayout table, RopeLayout rotation)
{
    const std::int64_t d = p.rope.headDim, h = d / 2, rows = std::int64_t(positions.size());
    std::mt19937 engine(47);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    Applied a {RowMatrixXf(rows, d), RowMatrixXf(rows, d)};
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < d; ++j)
            a.x(r, j) = normal(engine);
    const std::vector<double> inv = roperef::inv(p);
    const auto scaling = float(roperef::attentionFactor(p));
    for (std::int64_t r = 0; r < rows; ++r) {
        // The table's columns: cat(freqs, freqs) for half, repeat_interleave(2) for interleaved.
        std::vector<float> cos(static_cast<std::size_t>(d)), sin(static_cast<std::size_t>(d));
        for (std::int64_t j = 0; j < d; ++j) {
            const std::int64_t k = table == RopeLayout::Half ? j % h : j / 2;
            const float angle = float(positions[std::size_t(r)]) * float(inv[std::size_t(k)]);
            cos[std::size_t(j)] = std::cos(angle) * scaling;
            sin[std::size_t(j)] = std::sin(angle) * scaling;
        }
        for (std::int64_t j = 0; j < d; ++j) {
            float turned = 0.0f;
            if (rotation == RopeLayout::Half)
                turned = j < h ? -a.x(r, j + h) : a.x(r, j - h);
            else
                turned = j % 2 == 0 ? -a.x(r, j + 1) : a.x(r, j - 1);
            a.y(r, j) = a.x(r, j) * cos[std::size_t(j)] + turned * sin[std::size_t(j)];
        }
    }
    return a;
}

std::vector<std::int64_t> from(std::int64_t first, std::int64_t rows)
{
    std::vector<std::int64_t> positions(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r)
        positions[std::size_t(r)] = first + r;
    return positions;
}

Params ropeOf(RopeType type)
{
    if (type == RopeType::Llama3)
        return roperef::llama31();
    if (type == RopeType::Yarn)
        return roperef::gptOss();
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.headDim = 128;
    p.rope.theta = 10000.0;
    return p;
}

QString typeWord(RopeType type)
{
    return type == RopeType::Llama3 ? u"llama3"_s : type == RopeType::Yarn ? u"yarn"_s : u"default"_s;
}

} // namespace

Q_DECLARE_METATYPE(posenc::RopeType)
Q_DECLARE_METATYPE(posenc::RopeLayout)

class TestApplyCheck : public QObject
{
    Q_OBJECT

private slots:
    void rotationsAreRead_data()
    {
        QTest::addColumn<RopeType>("type");
        QTest::addColumn<RopeLayout>("layout");
        for (const RopeType type : {RopeType::Default, RopeType::Llama3, RopeType::Yarn})
            for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved})
                QTest::addRow("%s, %s", qPrintable(typeWord(type)), layout == RopeLayout::Half ? "half" : "interleaved")
                    << type << layout;
    }
    // The layout, the rope_type and its parameters, the attention factor, positions 0..L-1.
    void rotationsAreRead()
    {
        QFETCH(RopeType, type);
        QFETCH(RopeLayout, layout);
        const Params p = ropeOf(type);
        const std::int64_t rows = 1024;
        const Applied a = applied(p, from(0, rows), layout, layout);
        auto checked = ApplyCheck::check(a.x, a.y, {});
        if (const auto *refused = std::get_if<QString>(&checked))
            QFAIL(qPrintable(*refused));
        const ApplyCheck::Result &r = std::get<ApplyCheck::Result>(checked);
        QVERIFY2(r.mistakes.isEmpty() && r.deviatingRows == 0,
                 qPrintable(r.diagnosis + u" | "_s + r.mistakes.join(u", "_s)));
        QVERIFY2(r.verdict == CheckVerdict::Correct,
                 qPrintable(r.diagnosis + u" | "_s + r.frequencies + r.notes.join(u" "_s)));
        QCOMPARE(r.rotation, layout);
        QCOMPARE(r.table, layout);
        QVERIFY(r.params);
        QCOMPARE(r.params->rope.type, type);
        QCOMPARE(r.params->rope.theta, p.rope.theta);
        QVERIFY2(std::fabs(r.attentionFactor - roperef::attentionFactor(p)) < 1e-5,
                 qPrintable(QString::number(r.attentionFactor, 'g', 17)));
        QCOMPARE(qsizetype(r.positions.size()), qsizetype(1));
        QCOMPARE(r.positions.front().position, std::int64_t(0));
        QCOMPARE(r.positions.front().count, rows);
        QVERIFY(r.positionOffset);
        QCOMPARE(*r.positionOffset, std::int64_t(0));
        // The largest |Y - X turned| as float64 here computes it.
        const std::vector<double> inv = roperef::inv(p);
        const double af = roperef::attentionFactor(p);
        double largest = 0.0;
        for (std::int64_t row = 0; row < rows; ++row) {
            for (std::int64_t k = 0; k < p.rope.headDim / 2; ++k) {
                const std::int64_t h = p.rope.headDim / 2;
                const std::int64_t i = layout == RopeLayout::Half ? k : 2 * k,
                                   j = layout == RopeLayout::Half ? k + h : 2 * k + 1;
                const double c = af * std::cos(double(row) * inv[std::size_t(k)]),
                             s = af * std::sin(double(row) * inv[std::size_t(k)]);
                largest = std::max(largest, std::fabs(double(a.y(row, i)) - (a.x(row, i) * c - a.x(row, j) * s)));
                largest = std::max(largest, std::fabs(double(a.y(row, j)) - (a.x(row, j) * c + a.x(row, i) * s)));
            }
        }
        QVERIFY2(std::fabs(r.maxAbsError - largest) <= 1e-9 + 1e-6 * largest,
                 qPrintable(u"%1 against %2"_s.arg(r.maxAbsError).arg(largest)));
    }

    // The table built for one pairing, applied with the other: named, both layouts said.
    void aSwappedLayoutIsNamed_data()
    {
        QTest::addColumn<RopeLayout>("table");
        QTest::newRow("half table, rotate_every_two") << RopeLayout::Half;
        QTest::newRow("interleaved table, rotate_half") << RopeLayout::Interleaved;
    }
    void aSwappedLayoutIsNamed()
    {
        QFETCH(RopeLayout, table);
        const RopeLayout rotation = table == RopeLayout::Half ? RopeLayout::Interleaved : RopeLayout::Half;
        const Applied a = applied(ropeOf(RopeType::Default), from(0, 512), table, rotation);
        const ApplyCheck::Result r = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, {}));
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QCOMPARE(r.mistakes, QStringList {ApplyCheck::kLayoutSwapped});
        QCOMPARE(r.table, table);
        QCOMPARE(r.rotation, rotation);
        QVERIFY2(r.diagnosis.contains(u"swapped between the table and the apply"_s), qPrintable(r.diagnosis));
    }

    // Positions from 5: every row's position read, the offset named.
    void aConstantOffsetIsNamed()
    {
        const Applied a = applied(roperef::llama31(), from(5, 700), RopeLayout::Half, RopeLayout::Half);
        const ApplyCheck::Result r = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, {}));
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QCOMPARE(r.mistakes, QStringList {u"position-offset"_s});
        QVERIFY(r.positionOffset);
        QCOMPARE(*r.positionOffset, std::int64_t(5));
        QVERIFY2(r.diagnosis.contains(u"position r + 5"_s), qPrintable(r.diagnosis));
    }

    // Rows 300..309 at positions 1000..1009 (an image's tokens placed elsewhere): each row's
    // position read and the rows named.
    void rowsOutOfOrderAreNamed()
    {
        std::vector<std::int64_t> positions = from(0, 600);
        for (std::int64_t r = 300; r < 310; ++r)
            positions[std::size_t(r)] = 700 + r;
        const Applied a = applied(ropeOf(RopeType::Default), positions, RopeLayout::Half, RopeLayout::Half);
        const ApplyCheck::Result r = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, {}));
        QCOMPARE(r.verdict, CheckVerdict::Mistake);
        QCOMPARE(r.mistakes, QStringList {ApplyCheck::kPositionsOutOfOrder});
        QCOMPARE(qsizetype(r.positions.size()), qsizetype(3));
        QCOMPARE(r.positions[1].row, std::int64_t(300));
        QCOMPARE(r.positions[1].position, std::int64_t(1000));
        QCOMPARE(r.positions[1].count, std::int64_t(10));
        QVERIFY2(r.diagnosis.contains(u"rows 300..309 at 1000..1009"_s), qPrintable(r.diagnosis));
    }

    // Y that no rotation gives: unknown, said so; X and Y of two shapes: refused.
    void notARotationIsUnknown()
    {
        Applied a = applied(ropeOf(RopeType::Default), from(0, 64), RopeLayout::Half, RopeLayout::Half);
        std::mt19937 engine(3);
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (Eigen::Index i = 0; i < a.y.size(); ++i)
            a.y.data()[i] = normal(engine);
        const ApplyCheck::Result r = std::get<ApplyCheck::Result>(ApplyCheck::check(a.x, a.y, {}));
        QCOMPARE(r.verdict, CheckVerdict::Unknown);
        QVERIFY2(r.diagnosis.contains(u"not X turned pair by pair"_s), qPrintable(r.diagnosis));
        const RowMatrixXf shorter = a.y.topRows(10);
        QVERIFY(std::holds_alternative<QString>(ApplyCheck::check(a.x, shorter, {})));
    }
};

QTEST_APPLESS_MAIN(TestApplyCheck)
#include "tst_applycheck.moc"
