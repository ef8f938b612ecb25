// The layer-stack figure: each layer of the example configs in its group, its lanes' keys (what
// places position, how far it attends) as the model's code makes them, written here from the
// reference code; a 14-pt slide of Llama 4 Scout and Gemma 3 keeps its plot; a file that is no
// config is refused naming the option.
#include "render/FigureExporter.h"
#include "render/SwatchLegend.h"
#include "render/data/models/ConfigSource.h"
#include "render/figures/models/LayerStackFigure.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace tst_layerstackfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

LayerStackData stackOf(const QString &example)
{
    const auto loaded = std::get<ConfigSource::Loaded>(ConfigSource::load(example));
    return LayerStackModel::compute(loaded.name, loaded.check.basis, loaded.check);
}

// The group holding layer `layer`.
const LayerStackData::Group *groupOf(const LayerStackData &d, std::int64_t layer)
{
    for (const auto &g : d.groups) {
        if (std::find(g.layers.cbegin(), g.layers.cend(), layer) != g.layers.cend())
            return &g;
    }
    return nullptr;
}

} // namespace

class TestLayerStackFigure : public QObject
{
    Q_OBJECT

private slots:
    void everyLayerInItsLanes_data();
    void everyLayerInItsLanes();
    void figureIsRegisteredAndExports();
    void aSlideKeepsThePlot();
    void theSpanKeySaysHowFarItReaches_data();
    void theSpanKeySaysHowFarItReaches();
    void theKeyNamesWhatEachColourMeans_data();
    void theKeyNamesWhatEachColourMeans();
    void aFileThatIsNoConfigIsRefused();
};

void TestLayerStackFigure::everyLayerInItsLanes_data()
{
    QTest::addColumn<QString>("example");
    QTest::addColumn<qint64>("layers");
    // Which layers turn, and which attend within a window (w) or chunk (c), from the reference code.
    QTest::addColumn<int>("period");
    QTest::addColumn<QString>("spanOnTurning");
    QTest::addColumn<QString>("positionOffPeriod");
    QTest::addColumn<QString>("spanOffPeriod");
    // Llama 4: (i + 1) % 4 != 0 turn, chunked; every 4th NoPE, global (Llama4TextConfig).
    QTest::newRow("Llama 4 Scout") << u"llama-4-scout"_s << 48LL << 4 << u"chunk"_s << u"none"_s << u"full"_s;
    // Cohere2: RoPE on the sliding layers only.
    QTest::newRow("Command R7B") << u"command-r7b"_s << 32LL << 4 << u"window"_s << u"none"_s << u"full"_s;
    // Qwen3-Next: three Gated DeltaNet layers, then full attention that turns.
    QTest::newRow("Qwen3-Next") << u"qwen3-next"_s << 48LL << 4 << u"linear"_s << u"rope"_s << u"full"_s;
    // Gemma 3 and 4: five sliding layers, then a full one; both turn, with their own theta.
    QTest::newRow("Gemma 3 4B") << u"gemma-3-4b"_s << 34LL << 6 << u"window"_s << u"rope"_s << u"full"_s;
    QTest::newRow("Gemma 4 31B") << u"gemma-4-31b"_s << 60LL << 6 << u"window"_s << u"rope"_s << u"full"_s;
    // SmolLM3: every 4th layer NoPE, all global.
    QTest::newRow("SmolLM3") << u"smollm3-3b"_s << 36LL << 4 << u"full"_s << u"none"_s << u"full"_s;
}

void TestLayerStackFigure::everyLayerInItsLanes()
{
    QFETCH(QString, example);
    QFETCH(qint64, layers);
    QFETCH(int, period);
    QFETCH(QString, spanOnTurning);
    QFETCH(QString, positionOffPeriod);
    QFETCH(QString, spanOffPeriod);
    const LayerStackData d = stackOf(example);
    QCOMPARE(d.layerCount, layers);
    for (std::int64_t i = 0; i < layers; ++i) {
        const LayerStackData::Group *g = groupOf(d, i);
        QVERIFY2(g, qPrintable(QString::number(i)));
        const bool onPeriod = (i + 1) % period == 0;
        const QByteArray where = (example + u" layer "_s + QString::number(i)).toUtf8();
        if (example == u"qwen3-next"_s) {
            // The period's layer is the attention one there.
            QVERIFY2(onPeriod ? g->positionKey.startsWith(u"rope"_s) : g->positionKey == u"linear"_s, where);
            QVERIFY2(g->spanKey == (onPeriod ? u"full"_s : u"linear"_s), where);
            continue;
        }
        if (onPeriod) {
            QVERIFY2(g->positionKey.startsWith(positionOffPeriod), where);
            QVERIFY2(g->spanKey == spanOffPeriod, where);
        } else {
            QVERIFY2(g->positionKey.startsWith(u"rope"_s), where);
            QVERIFY2(g->spanKey == spanOnTurning, where);
        }
    }
    // The sliding and full layers of Gemma turn with their own theta: two colours of RoPE.
    if (example.startsWith(u"gemma"_s)) {
        QCOMPARE(d.groups.size(), 2);
        QVERIFY(d.groups[0].positionKey != d.groups[1].positionKey);
        QCOMPARE(d.groups[0].theta, 1e4);
        QCOMPARE(d.groups[1].theta, 1e6);
    }
}

void TestLayerStackFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1200, 800));
    FigureState state;
    state.options.insert(u"config"_s, u"llama-4-scout"_s);
    const auto built = FigureBuilds::build(u"layer-stack"_s, Params(), size, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1200, 800));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"48 layers"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"q × (1 + 0.1 ln(⌊(p + 1) / 8192⌋ + 1))"_s), qPrintable(texts));
    // It reads the config, not the parameters: every family's, no quantity.
    QVERIFY(FigureBuilds::figure(u"layer-stack"_s).model().inputs(state).isEmpty());
}

void TestLayerStackFigure::aSlideKeepsThePlot()
{
    // A 16:9 slide at 14 pt (the lessons' size): the plot keeps its room, the words their lines.
    FigureStyle style;
    style.fontPointSize = 14;
    const FigureSize slide = FigureSize::fromInches(QSizeF(10.0, 5.626), 300);
    for (const QString &example : {u"llama-4-scout"_s, u"gemma-3-4b"_s, u"deepseek-v3"_s}) {
        FigureState state;
        state.options.insert(u"config"_s, example);
        const auto built = FigureBuilds::build(u"layer-stack"_s, Params(), slide, state, style);
        QVERIFY2(!built->error(), qPrintable(example + u": "_s + FigureBuilds::errorOf(*built)));
    }
}

void TestLayerStackFigure::theSpanKeySaysHowFarItReaches_data()
{
    QTest::addColumn<QString>("example");
    QTest::addColumn<QString>("entry");
    // ModernBertAttention: a local layer sees local_attention // 2 = 64 keys each side (config 128).
    QTest::newRow("ModernBERT") << u"modernbert-base"_s << u"span: sliding window ±64"_s;
    // Gemma3's sliding layers: sliding_window 1024 back, the query included.
    QTest::newRow("Gemma 3 4B") << u"gemma-3-4b"_s << u"span: sliding window 1024"_s;
    // Llama4TextAttention's chunked layers: attention_chunk_size 8192.
    QTest::newRow("Llama 4 Scout") << u"llama-4-scout"_s << u"span: chunk 8192"_s;
}

// The key of the span lane names the window's or chunk's reach, on a 14-pt slide too: ModernBERT's
// slide named its local layers "RoPE 1e4" and "sliding window", and the ±64 nowhere.
void TestLayerStackFigure::theSpanKeySaysHowFarItReaches()
{
    QFETCH(QString, example);
    QFETCH(QString, entry);
    FigureStyle style;
    style.fontPointSize = 14;
    const FigureSize slide = FigureSize::fromInches(QSizeF(10.0, 5.626), 300);
    for (const FigureSize &size : {slide, FigureSize::fromPixels(QSize(1200, 800))}) {
        FigureState state;
        state.options.insert(u"config"_s, example);
        const auto built = FigureBuilds::build(u"layer-stack"_s, Params(), size, state,
                                               size.layout == slide.layout ? style : FigureStyle());
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QStringList labels;
        for (QCPLegend *legend : built->plot()->findChildren<QCPLegend *>())
            for (int i = 0; i < legend->itemCount(); ++i)
                labels.append(SwatchLegend::label(legend->item(i)));
        QVERIFY2(labels.contains(entry), qPrintable(labels.join(u" | "_s)));
    }
}

void TestLayerStackFigure::theKeyNamesWhatEachColourMeans_data()
{
    QTest::addColumn<QString>("example");
    // Each position colour's scheme as the key's first words, and its layers by type, from the
    // configs: gpt-oss turns every layer alike (rope_theta 150000, yarn factor 32), 12 sliding and
    // 12 full; Llama 4 Scout turns 36 chunked layers (500000, llama3 factor 16), 12 full ones NoPE.
    QTest::addColumn<QStringList>("schemes");
    QTest::addColumn<QStringList>("layers");
    QTest::newRow("gpt-oss-20b") << u"gpt-oss-20b"_s << QStringList {u"RoPE 1.5e5 yarn ×32"_s}
                                 << QStringList {u"12 sliding_attention and 12 full_attention layers"_s};
    QTest::newRow("Llama 4 Scout") << u"llama-4-scout"_s << QStringList {u"RoPE 5e5 llama3 ×16"_s, u"NoPE"_s}
                                   << QStringList {u"36 chunked_attention layers"_s, u"12 full_attention layers"_s};
    QTest::newRow("Gemma 3 4B") << u"gemma-3-4b"_s << QStringList {u"RoPE 1e4"_s, u"RoPE 1e6 linear ×8"_s}
                                << QStringList {u"29 sliding_attention layers"_s, u"5 full_attention layers"_s};
}

// The position lane's key names what its colour means, the scheme its layers share: gpt-oss's
// window keyed its one blue "sliding_attention ×12", over 24 rows half of them full_attention
// layers, and Llama 4's "chunked_attention ×36", a count where "×" is a scaling's factor. At each
// size the entry starts with the scheme; where it counts layers, it counts them all, by type.
void TestLayerStackFigure::theKeyNamesWhatEachColourMeans()
{
    QFETCH(QString, example);
    QFETCH(QStringList, schemes);
    QFETCH(QStringList, layers);
    FigureStyle slideStyle;
    slideStyle.fontPointSize = 14;
    const FigureSize slide = FigureSize::fromInches(QSizeF(10.0, 5.626), 300);
    for (const FigureSize &size : {slide, FigureSize::fromPixels(QSize(1200, 800)),
                                   FigureSize::fromPixels(QSize(1430, 470)), FigureSize::fromPixels(QSize(880, 340))}) {
        FigureState state;
        state.options.insert(u"config"_s, example);
        const auto built = FigureBuilds::build(u"layer-stack"_s, Params(), size, state,
                                               size.layout == slide.layout ? slideStyle : FigureStyle());
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QStringList positions;
        for (QCPLegend *legend : built->plot()->findChildren<QCPLegend *>())
            for (int i = 0; i < legend->itemCount(); ++i)
                if (const QString label = SwatchLegend::label(legend->item(i));
                    !label.isEmpty() && !label.startsWith(u"span:"_s))
                    positions.append(label);
        const QString all = positions.join(u" | "_s);
        QVERIFY2(positions.size() == schemes.size(), qPrintable(all));
        static const QRegularExpression countedByTimes(u"\\w+_\\w+ ×\\d"_s);
        for (qsizetype i = 0; i < positions.size(); ++i) {
            QVERIFY2(positions[i].startsWith(schemes[i]), qPrintable(all));
            QVERIFY2(!positions[i].contains(countedByTimes), qPrintable(all));
            // A layer type named is named with every other type of its colour, each counted.
            if (positions[i].contains(u"_attention"_s))
                QVERIFY2(positions[i].contains(layers[i]), qPrintable(all));
        }
    }
}

void TestLayerStackFigure::aFileThatIsNoConfigIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"x.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"hello": "world"})");
    file.close();
    FigureState state;
    state.options.insert(u"config"_s, path);
    const QList<ParamError> problems = FigureBuilds::figure(u"layer-stack"_s).model().check(Params(), state);
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems.first().key, u"config"_s);
    QVERIFY(problems.first().allowed.contains(u"llama-4-scout"_s));
    QVERIFY(problems.first().problem.contains(u"not a model config"_s));
}

POSENC_TEST_MAIN(TestLayerStackFigure)
} // namespace tst_layerstackfigure
#include "tst_layerstackfigure.moc"
