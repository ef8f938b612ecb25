// The query-scale figure: each model's logit multiplier against float64 formulas written here:
// Llama 4's temperature 1 + 0.1 ln(floor((p + 1) / 8192) + 1), Ministral 3's 1 + 0.1 ln(1 +
// floor(p / L0)) at HF's default L0 16384 and Devstral's 8192, DeepSeek-V3's softmax factor
// (0.1 ln 40 + 1)^2 and gpt-oss's yarn attention factor squared (0.1 ln 32 + 1)^2; the numbers
// the issue quotes marked: 1.0693 from 8191, 1.2197 at 131072.
#include "render/FigureExporter.h"
#include "render/figures/models/QueryScaleFigure.h"
#include "support/TestMain.h"

#include "check/ModelConfigCheck.h"
#include "check/models/ModelExamples.h"

#include "support/FigureBuilds.h"

#include <QTest>

#include <cmath>

namespace tst_queryscalefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The curve's value at `p`: the last step starting at or before it.
double at(const QueryScaleData::Curve &c, double p)
{
    double v = c.values.first();
    for (qsizetype i = 0; i < c.positions.size(); ++i) {
        if (c.positions[i] <= p)
            v = c.values[i];
    }
    return v;
}

const QueryScaleData::Curve *curve(const QueryScaleData &d, const QString &start)
{
    for (const QueryScaleData::Curve &c : d.curves) {
        if (c.label.startsWith(start))
            return &c;
    }
    return nullptr;
}

} // namespace

class TestQueryScaleFigure : public QObject
{
    Q_OBJECT

private slots:
    void curvesAreTheFormulas_data();
    void curvesAreTheFormulas();
    void yarnFactorsAreConstant();
    void theQuotedNumbersAreMarked();
    void aConfigsAxisEndsAtItsContext();
    void figureIsRegisteredAndExports();
};

void TestQueryScaleFigure::curvesAreTheFormulas_data()
{
    QTest::addColumn<QString>("curve");
    QTest::addColumn<int>("kind"); // 0 temperature, 1 beta
    QTest::addColumn<double>("length");
    QTest::newRow("Llama 4 Scout") << u"Llama 4 Scout"_s << 0 << 8192.0;
    QTest::newRow("Ministral 3") << u"Ministral 3 (HF default)"_s << 1 << 16384.0;
    QTest::newRow("Devstral") << u"Devstral Small 2"_s << 1 << 8192.0;
}

void TestQueryScaleFigure::curvesAreTheFormulas()
{
    QFETCH(QString, curve);
    QFETCH(int, kind);
    QFETCH(double, length);
    const QueryScaleData d = QueryScaleModel::examples();
    const QueryScaleData::Curve *c = tst_queryscalefigure::curve(d, curve);
    QVERIFY(c);
    QVERIFY(!c->constant);
    for (double p = 1.0; p <= d.lastPosition; p = std::floor(p * 1.37) + 1.0) {
        const double expected = kind == 0 ? 1.0 + 0.1 * std::log(std::floor((p + 1.0) / length) + 1.0)
                                          : 1.0 + 0.1 * std::log(1.0 + std::floor(p / length));
        QVERIFY2(std::abs(at(*c, p) - expected) < 1e-15, qPrintable(u"%1 at %2"_s.arg(curve).arg(p)));
    }
}

void TestQueryScaleFigure::yarnFactorsAreConstant()
{
    const QueryScaleData d = QueryScaleModel::examples();
    const double deepseek = std::pow(0.1 * std::log(40.0) + 1.0, 2.0); // attention factor 1
    const double oss = std::pow(0.1 * std::log(32.0) + 1.0, 2.0); // on cos and sin, no mscale pair
    const QueryScaleData::Curve *ds = curve(d, u"DeepSeek-V3"_s);
    const QueryScaleData::Curve *gpt = curve(d, u"gpt-oss-20b"_s);
    QVERIFY(ds && gpt && ds->constant && gpt->constant);
    QVERIFY(std::abs(ds->values.first() - deepseek) < 1e-12);
    QVERIFY(std::abs(gpt->values.first() - oss) < 1e-12);
    QVERIFY(std::abs(deepseek - 1.8738542) < 1e-7);
    QVERIFY(std::abs(oss - 1.8132604) < 1e-7);
}

void TestQueryScaleFigure::theQuotedNumbersAreMarked()
{
    const QueryScaleData d = QueryScaleModel::examples();
    QCOMPARE(d.marks.size(), 2);
    QCOMPARE(d.marks[0].position, 8191.0);
    QCOMPARE(d.marks[0].value, 1.0 + 0.1 * std::log(2.0));
    QVERIFY(d.marks[0].label.startsWith(u"1.0693"_s));
    QCOMPARE(d.marks[1].position, 131072.0);
    QCOMPARE(d.marks[1].value, 1.0 + 0.1 * std::log(9.0)); // 1 + floor(131072 / 16384) = 9
    QVERIFY(d.marks[1].label.startsWith(u"1.2197"_s));
}

// A config's positions run to its own context, max_position_embeddings as its config.json gives it
// (text_config's for a multimodal one): Gemma 3 4B's axis ran to 2^21, past its 131072 positions,
// as the many-layers lesson showed it.
void TestQueryScaleFigure::aConfigsAxisEndsAtItsContext()
{
    for (const QString &name : {u"gemma-3-4b"_s, u"llama-4-scout"_s}) {
        const ModelExamples::Example *example = ModelExamples::find(name);
        QVERIFY(example);
        QJsonObject text = example->config;
        if (text.contains(u"text_config"_s))
            text = text.value(u"text_config"_s).toObject();
        const double context = text.value(u"max_position_embeddings"_s).toDouble();
        QVERIFY2(context > 0.0, qPrintable(name));
        const QueryScaleData d = QueryScaleModel::ofConfig(name, ModelConfig::check(example->config));
        QCOMPARE(d.lastPosition, context);
        for (const QueryScaleData::Curve &c : d.curves)
            QCOMPARE(c.positions.last(), context);
    }
}

void TestQueryScaleFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 700));
    for (const QString &config : {QString(), u"devstral-small-2"_s}) {
        FigureState state;
        if (!config.isEmpty())
            state.options.insert(u"config"_s, config);
        const auto built = FigureBuilds::build(u"query-scale"_s, Params(), size, state);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1000, 700));
    }
    FigureStyle style;
    style.fontPointSize = 14;
    const auto slide
        = FigureBuilds::build(u"query-scale"_s, Params(), FigureSize::fromInches(QSizeF(10.0, 5.626), 300), {}, style);
    QVERIFY2(!slide->error(), qPrintable(FigureBuilds::errorOf(*slide)));
}

POSENC_TEST_MAIN(TestQueryScaleFigure)
} // namespace tst_queryscalefigure
#include "tst_queryscalefigure.moc"
