#include "ConfigCheckTable.h"

#include "check/CheckReport.h"
#include "check/ConfigContext.h"
#include "check/FamilyCheck.h"
#include "check/models/ConfigSources.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeTypes.h"

#include <QHash>

#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace posenc::ConfigCheckTable {

namespace {

// The columns, and the source key (ConfigLayer::sources) whose guess marks each.
enum Column { Type, Layers, Count, Encoding, Theta, Rotary, RopeType, Pairs, Window, CosSin, QK, kColumns };
const std::array<QString, kColumns> kHeaders {u"layer type"_s, u"layers"_s, u"n"_s,    u"encoding"_s,
                                              u"theta"_s,      u"rotary"_s, u"rope"_s, u"pairs"_s,
                                              u"window"_s,     u"cos*"_s,   u"q.k"_s};
const std::array<QString, kColumns> kSources {u""_s,
                                              u"layers"_s,
                                              u""_s,
                                              u""_s,
                                              u"rope_theta"_s,
                                              u"rotary_dim"_s,
                                              u"rope_type"_s,
                                              u"rope_layout"_s,
                                              u"sliding_window"_s,
                                              u"attention_factor"_s,
                                              u"softmax_scale"_s};

QString sourceOf(const ConfigLayer &layer, const QString &key)
{
    for (const auto &[k, v] : layer.sources) {
        if (k == key)
            return v;
    }
    return {};
}

// The words a person reads for a layer's encoding: NoPE attention is "nope", not "none".
QString encodingWords(const ConfigLayer &layer)
{
    const QString e = layer.scheme.encoding.isEmpty() ? Families::word(layer.params.encoding) : layer.scheme.encoding;
    if (e == u"none"_s && layer.scheme.headDim > 0)
        return u"nope"_s;
    return e == u"cross_attention"_s ? u"cross-attn"_s : e;
}

QString number(double v)
{
    return NumberText::compact(v, 3);
}

std::array<QString, kColumns> cells(const ConfigLayer &layer)
{
    std::array<QString, kColumns> c;
    c.fill(u"-"_s);
    c[Type] = layer.layerType;
    c[Layers] = CheckReport::layerRuns(layer.layers);
    c[Count] = QString::number(layer.layers.size());
    c[Encoding] = encodingWords(layer);
    const LayerScheme &s = layer.scheme;
    if (FamilyChecks::of(layer.params.encoding).rotary && !s.rotaryPlace.isEmpty() && layer.described) {
        const RopeParams &r = layer.params.rope;
        c[Theta] = ConfigText::number(r.theta);
        const QString place = s.rotaryPlace == u"mla-tail"_s ? u" tail"_s
            : s.rotaryPlace == u"proportional"_s             ? u" prop"_s
                                                             : QString();
        c[Rotary] = u"%1/%2%3"_s.arg(RopeFrequencies::rotaryDim(r)).arg(r.headDim).arg(place);
        c[RopeType] = RopeTypes::word(r.type);
        c[Pairs] = r.layout == RopeLayout::Half ? u"half"_s : u"adj"_s;
        c[CosSin] = number(RopeFrequencies::attentionFactor(layer.params));
    }
    if (s.window)
        c[Window] = (s.windowBothSides ? u"+-"_s : QString()) + QString::number(*s.window);
    else if (s.chunk)
        c[Window] = u"chunk "_s + QString::number(*s.chunk);
    if (s.softmaxScale)
        c[QK] = number(*s.softmaxScale);
    for (int i = 0; i < kColumns; ++i) {
        if (!kSources[i].isEmpty() && c[i] != u"-"_s && ConfigSources::isGuess(sourceOf(layer, kSources[i])))
            c[i] += u'?';
    }
    return c;
}

QString cut(const QString &text, qsizetype width)
{
    return text.size() <= width ? text : text.left(std::max<qsizetype>(width - 3, 0)) + u"..."_s;
}

bool shown(const ConfigLayer &layer, const QString &layerType)
{
    return layerType.isEmpty() || layer.layerType == layerType;
}

} // namespace

QStringList wrapped(const QString &lead, const QString &text, int width, int indent)
{
    QStringList lines;
    const QString margin(indent < 0 ? lead.size() : indent, u' ');
    QString line = lead;
    bool empty = true;
    for (const QString &word : text.split(u' ', Qt::SkipEmptyParts)) {
        if (!empty && line.size() + 1 + word.size() > width) {
            lines.append(line);
            line = margin;
        }
        line += u' ' + word;
        empty = false;
    }
    lines.append(line);
    return lines;
}

namespace {

QString withoutTrailingSpaces(QString text)
{
    while (text.endsWith(u' '))
        text.chop(1);
    return text;
}

} // namespace

QStringList table(const ConfigCheck &check, const QString &layerType, int width)
{
    QList<std::array<QString, kColumns>> rows;
    bool guessed = false;
    for (const ConfigLayer &layer : check.layers) {
        if (!shown(layer, layerType))
            continue;
        rows.append(cells(layer));
        guessed = guessed
            || std::any_of(rows.last().cbegin(), rows.last().cend(), [](const QString &c) { return c.endsWith(u'?'); });
    }
    std::array<qsizetype, kColumns> widths {};
    std::array<bool, kColumns> used {};
    for (int i = 0; i < kColumns; ++i) {
        widths[i] = kHeaders[i].size();
        for (const auto &row : rows) {
            widths[i] = std::max(widths[i], row[i].size());
            used[i] = used[i] || row[i] != u"-"_s;
        }
    }
    // A column no row fills (no window, no rotation) is left out, and cos* where it is 1 throughout.
    const bool plainCosSin = std::all_of(
        rows.cbegin(), rows.cend(), [](const auto &row) { return row[CosSin] == u"-"_s || row[CosSin] == u"1"_s; });
    for (int i = 0; i < kColumns; ++i) {
        if ((!used[i] || (i == CosSin && plainCosSin)) && !rows.isEmpty())
            widths[i] = -2;
    }
    // Two spaces between columns; the layers column, then the type's, give way to fit `width`.
    const auto total = [&] {
        qsizetype sum = 2 * (kColumns - 1);
        for (const qsizetype w : widths)
            sum += w;
        return sum;
    };
    const std::array<std::pair<Column, qsizetype>, 4> shrinking {
        {{Layers, 10}, {Type, 12}, {RopeType, 8}, {Rotary, 9}}};
    for (const auto &[column, least] : shrinking) {
        const qsizetype over = total() - width;
        if (over > 0 && widths[column] > least)
            widths[column] = std::max<qsizetype>(widths[column] - over, least);
    }
    QStringList lines;
    const auto line = [&](const std::array<QString, kColumns> &row) {
        QString text;
        for (int i = 0; i < kColumns; ++i) {
            if (widths[i] < 0)
                continue;
            const QString cell = cut(row[i], widths[i]);
            // Numbers and counts right-aligned, words left.
            const bool right = i == Count || i == Theta || i == Window || i == CosSin || i == QK;
            text += right ? cell.rightJustified(widths[i]) : cell.leftJustified(widths[i]);
            if (i + 1 < kColumns)
                text += u"  "_s;
        }
        lines.append(withoutTrailingSpaces(text));
    };
    line(kHeaders);
    for (const auto &row : rows)
        line(row);
    // The layer lists the column cut, whole, below the table.
    QStringList cutLists;
    for (const auto &row : rows) {
        if (row[Layers].size() > widths[Layers])
            cutLists
                += wrapped(u"  "_s + row[Type] + u':', row[Layers].chopped(row[Layers].endsWith(u'?') ? 1 : 0), width);
    }
    if (!cutLists.isEmpty())
        lines += QStringList {u"layers:"_s} + cutLists;
    if (guessed)
        lines += wrapped(
            u"?"_s,
            u"a guess: %1 is not in posenc's table of models, so the number follows the rules and "
            "defaults named under \"where the numbers come from\", not the model's own code"_s.arg(check.modelType),
            width);
    return lines;
}

QStringList sources(const ConfigCheck &check, const QString &layerType, int width)
{
    QStringList lines;
    // The first layer type of each list of sources, by the list: linear in the layer types.
    QHash<QString, QString> said;
    for (const ConfigLayer &layer : check.layers) {
        if (!shown(layer, layerType) || layer.sources.isEmpty())
            continue;
        QString all;
        for (const auto &[key, source] : layer.sources)
            all += key + QChar(0x1f) + source + QChar(0x1e);
        if (const auto same = said.constFind(all); same != said.cend()) {
            lines.append(u"  %1: as %2"_s.arg(layer.layerType, *same));
            continue;
        }
        said.insert(all, layer.layerType);
        lines.append(u"  %1:"_s.arg(layer.layerType));
        qsizetype keyWidth = 0;
        for (const auto &[key, source] : layer.sources)
            keyWidth = std::max(keyWidth, key.size());
        for (const auto &[key, source] : layer.sources)
            lines += wrapped(u"    "_s + key.leftJustified(keyWidth), source, width);
    }
    return lines;
}

} // namespace posenc::ConfigCheckTable
