// The rope-input figure: one pixel a cell, the panel after the rotation is the panel before it
// turned pair by pair, rotate_half's pairs (i, i + r/2) or GPT-J's (2i, 2i + 1), by p·theta_i
// times the attention factor, in float64 here; the columns past the rotary dim pass through, and
// the change panel is their difference.
#include "render/FigureExporter.h"
#include "render/figures/rope/RopeInputFigure.h"
#include "support/TestMain.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QTest>

#include <cmath>

namespace tst_ropeinputfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params head(RopeLayout layout, double partial)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 48;
    p.maxLen = 90;
    p.rope.headDim = 32;
    p.rope.partialRotaryFactor = partial;
    p.rope.layout = layout;
    p.rope.type = RopeType::Yarn;
    p.rope.factor = 8.0;
    p.rope.originalMaxLen = 32;
    return p;
}

std::shared_ptr<const RopeInputData> compute(const Params &p)
{
    FigureRequest request;
    request.engine = std::make_shared<const Engine>(p);
    const double cols = double(p.rope.headDim), rows = double(p.maxLen);
    const PanelExtent panel {QSize(int(cols) * 3, int(rows) * 2), 1.0, {-0.5, cols - 0.5}, {-0.5, rows - 0.5}};
    request.panels = {panel, panel, panel};
    const std::atomic<bool> cancel {false};
    const FigureResult result = FigureBuilds::figure(u"rope-input"_s).model().compute(request, cancel);
    return std::static_pointer_cast<const RopeInputData>(result.data);
}

} // namespace

class TestRopeInputFigure : public QObject
{
    Q_OBJECT

private slots:
    void afterIsTheRotationOfBefore_data();
    void afterIsTheRotationOfBefore();
    void figureIsRegisteredAndExports();
    void llamaAndGptOssFitASlide();
    void aWhollyRotaryHeadNumbersItsRotaryColumns();
};

void TestRopeInputFigure::afterIsTheRotationOfBefore_data()
{
    QTest::addColumn<RopeLayout>("layout");
    QTest::addColumn<double>("partial");
    QTest::newRow("half") << RopeLayout::Half << 1.0;
    QTest::newRow("interleaved") << RopeLayout::Interleaved << 1.0;
    QTest::newRow("half, rotary 16 of 32") << RopeLayout::Half << 0.5;
    QTest::newRow("interleaved, rotary 16 of 32") << RopeLayout::Interleaved << 0.5;
}

void TestRopeInputFigure::afterIsTheRotationOfBefore()
{
    QFETCH(RopeLayout, layout);
    QFETCH(double, partial);
    const Params p = head(layout, partial);
    QVERIFY(p.validate().isEmpty());
    const auto d = compute(p);
    QVERIFY(d);
    QCOMPARE(d->before.rows, int(p.maxLen));
    QCOMPARE(d->before.cols, int(p.rope.headDim));
    QCOMPARE(d->after.cols, int(p.rope.headDim));
    const std::vector<double> inv = roperef::inv(p);
    const double a = roperef::attentionFactor(p);
    const auto h = std::int64_t(inv.size());
    for (int row = 0; row < d->after.rows; ++row) {
        for (std::int64_t j = 0; j < p.rope.headDim; ++j) {
            const double x = d->before.at(row, int(j));
            double expected = x;
            if (j < 2 * h) {
                // The pair j belongs to, and its other column: x_j cos + sign · x_partner sin.
                const std::int64_t pair = layout == RopeLayout::Half ? j % h : j / 2;
                const bool first = layout == RopeLayout::Half ? j < h : j % 2 == 0;
                const std::int64_t partner
                    = layout == RopeLayout::Half ? (first ? j + h : j - h) : (first ? j + 1 : j - 1);
                const double angle = double(row) * inv[std::size_t(pair)];
                const double other = d->before.at(row, int(partner));
                expected = a * (x * std::cos(angle) + (first ? -other : other) * std::sin(angle));
            }
            const double got = d->after.at(row, int(j));
            QVERIFY2(std::abs(got - expected) <= 1e-5 * std::max(1.0, std::abs(expected)),
                     qPrintable(u"p %1, column %2: %3 vs %4"_s.arg(row).arg(j).arg(got).arg(expected)));
            // The change panel: what the rotation moved, nothing in the columns that pass.
            QVERIFY(std::abs(d->change.at(row, int(j)) - (expected - x)) <= 2e-5 * std::max(1.0, std::abs(expected)));
            if (j >= 2 * h)
                QCOMPARE(d->change.at(row, int(j)), 0.0f);
        }
    }
}

void TestRopeInputFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"rope-input"_s);
    QCOMPARE(figure.model().inputs({}), (QList<Quantity> {Quantity::RopeInput, Quantity::Input}));
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    const auto built = FigureBuilds::build(u"rope-input"_s, head(RopeLayout::Half, 0.5), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"columns 16– pass, dashed"_s), qPrintable(texts));
}

void TestRopeInputFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-input"_s);
}

// An MLA preset's head_dim is its qk_rope_head_dim: DeepSeek-V3's and Kimi K2's 64 rotary columns are
// the last of a 192-wide query-key head (DeepseekV3Attention splits q into [qk_nope_head_dim,
// qk_rope_head_dim]), and "column j" 0-63 named them as its first. Where every column drawn turns the
// axis says "rotary column j"; where some pass (partial rotary, GPT-J's 64 of 256) "column j" of the head.
void TestRopeInputFigure::aWhollyRotaryHeadNumbersItsRotaryColumns()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1200, 600));
    for (const double partial : {1.0, 0.5}) {
        const auto built = FigureBuilds::build(u"rope-input"_s, head(RopeLayout::Interleaved, partial), size);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        int labelled = 0;
        for (QCPAxisRect *rect : built->plot()->axisRects()) {
            const QString label = rect->axis(QCPAxis::atBottom)->label();
            if (label.isEmpty() || !rect->axis(QCPAxis::atBottom)->visible())
                continue;
            ++labelled;
            QCOMPARE(label, partial == 1.0 ? u"rotary j"_s : u"column j"_s);
        }
        QVERIFY(labelled >= 1);
    }
}

POSENC_TEST_MAIN(TestRopeInputFigure)
} // namespace tst_ropeinputfigure
#include "tst_ropeinputfigure.moc"
