#include "HelpText.h"

#include <algorithm>

#include <sys/ioctl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace posenc::HelpText {

namespace {

// The widest term that shares its line with its text; a longer one has a line of its own.
constexpr int kItemTermMax = 30;
constexpr int kExampleTermMax = 52;
// The least room for the text beside a term before the text goes below it.
constexpr int kMinTextWidth = 24;
// Where the text of a term on a line of its own starts.
constexpr int kHangingIndent = 6;

// The pieces of a word longer than `width`: cut after the last '|', ',' or '/' that fits.
QStringList cutWord(QString word, int width)
{
    QStringList pieces;
    while (word.size() > width) {
        qsizetype cut = -1;
        for (qsizetype i = width - 1; i > 0; --i) {
            if (word[i] == u'|' || word[i] == u',' || word[i] == u'/') {
                cut = i + 1;
                break;
            }
        }
        if (cut <= 0)
            cut = width;
        pieces.append(word.left(cut));
        word = word.mid(cut);
    }
    pieces.append(word);
    return pieces;
}

QString spaces(int count)
{
    return QString(std::max(0, count), u' ');
}

QStringList indented(const QStringList &lines, int indent)
{
    QStringList out;
    for (const QString &line : lines)
        out.append(line.isEmpty() ? line : spaces(indent) + line);
    return out;
}

// Items (or examples) with their texts beside their terms where they fit, else below them.
QStringList renderItems(const HelpBlock &block, int width, int indent)
{
    const bool examples = block.kind == HelpBlock::Kind::Examples;
    const int termMax = examples ? kExampleTermMax : kItemTermMax;
    int longest = 0;
    for (const HelpItem &item : block.items) {
        if (item.term.size() <= termMax)
            longest = std::max(longest, int(item.term.size()));
    }
    const int column = indent + longest + 2;
    const bool besides = width - column >= kMinTextWidth;
    QStringList lines;
    for (const HelpItem &item : block.items) {
        const QStringList term = examples ? wrapCommand(item.term, width - indent) : wrap(item.term, width - indent);
        if (besides && term.size() == 1 && term.front().size() + indent <= column - 2) {
            const QStringList text = wrap(item.text, width - column);
            lines.append(text.isEmpty() ? spaces(indent) + term.front()
                                        : spaces(indent) + term.front().leftJustified(column - indent) + text.front());
            lines += indented(text.mid(1), column);
            continue;
        }
        lines += indented(term, indent);
        const int hanging = besides ? column : std::min(indent + kHangingIndent, width / 2);
        lines += indented(wrap(item.text, width - hanging), hanging);
    }
    return lines;
}

} // namespace

int width()
{
    bool ok = false;
    int columns = qEnvironmentVariable("COLUMNS").toInt(&ok);
    if (!ok || columns <= 0) {
        winsize size {};
        columns = isatty(STDOUT_FILENO) == 1 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0
            ? int(size.ws_col)
            : kMaxWidth;
    }
    return std::clamp(columns, kMinWidth, kMaxWidth);
}

QStringList wrap(const QString &text, int width)
{
    width = std::max(width, 1);
    QStringList lines;
    QString line;
    const QString folded = text.simplified();
    if (folded.isEmpty())
        return {};
    for (const QString &word : folded.split(u' ')) {
        for (const QString &piece : cutWord(word, width)) {
            if (line.isEmpty()) {
                line = piece;
            } else if (line.size() + 1 + piece.size() <= width) {
                line += u' ' + piece;
            } else {
                lines.append(line);
                line = piece;
            }
        }
    }
    lines.append(line);
    return lines;
}

QStringList wrapCommand(const QString &command, int width)
{
    // Room for the continuation " \" on every line but the last, and the next line's indent.
    constexpr int kContinuationIndent = 4;
    const QStringList words = command.simplified().split(u' ');
    QStringList lines;
    QString line;
    for (const QString &word : words) {
        const int room = width - 2 - (lines.isEmpty() ? 0 : kContinuationIndent);
        if (line.isEmpty() || line.size() + 1 + word.size() <= room) {
            line += (line.isEmpty() ? QString() : u" "_s) + word;
            continue;
        }
        lines.append(line + u" \\"_s);
        line = word;
    }
    lines.append(line);
    for (qsizetype i = 1; i < lines.size(); ++i)
        lines[i] = spaces(kContinuationIndent) + lines[i];
    return lines;
}

QString render(const HelpPage &whole, int width, HelpPage::View view)
{
    const HelpPage page = whole.viewed(view);
    QStringList lines;
    // "Usage: " and the synopsis lines under one another, each wrapped under its words.
    constexpr int kUsageIndent = 7;
    constexpr int kContinuation = kUsageIndent + 2;
    for (qsizetype i = 0; i < page.usage.size(); ++i) {
        const QStringList usage = wrap(page.usage[i], width - kContinuation);
        lines.append((i == 0 ? u"Usage: "_s : spaces(kUsageIndent)) + usage.value(0));
        lines += indented(usage.mid(1), kContinuation);
    }
    for (const HelpSection &section : page.sections) {
        if (!lines.isEmpty())
            lines.append(QString());
        const int indent = section.heading.isEmpty() ? 0 : 2;
        if (!section.heading.isEmpty())
            lines += wrap(section.heading + u':', width);
        for (qsizetype b = 0; b < section.blocks.size(); ++b) {
            const HelpBlock &block = section.blocks[b];
            if (b > 0)
                lines.append(QString());
            if (block.kind == HelpBlock::Kind::Paragraph)
                lines += indented(wrap(block.text, width - indent), indent);
            else
                lines += renderItems(block, width, indent);
        }
    }
    return lines.join(u'\n') + u'\n';
}

} // namespace posenc::HelpText
