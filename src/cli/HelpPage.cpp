#include "HelpPage.h"

using namespace Qt::StringLiterals;

namespace posenc {

HelpSection &HelpSection::paragraph(const QString &text)
{
    HelpBlock block;
    block.kind = HelpBlock::Kind::Paragraph;
    block.text = text;
    blocks.append(block);
    return *this;
}

HelpSection &HelpSection::items(const QList<HelpItem> &items)
{
    HelpBlock block;
    block.kind = HelpBlock::Kind::Items;
    block.items = items;
    blocks.append(block);
    return *this;
}

HelpSection &HelpSection::examples(const QList<HelpItem> &examples)
{
    HelpBlock block;
    block.kind = HelpBlock::Kind::Examples;
    block.items = examples;
    blocks.append(block);
    return *this;
}

HelpSection &HelpSection::shownIn(Shown where)
{
    shown = where;
    return *this;
}

HelpSection &HelpPage::section(const QString &heading)
{
    sections.append(HelpSection {heading, {}});
    return sections.last();
}

HelpPage HelpPage::viewed(View view) const
{
    const HelpSection::Shown elsewhere
        = view == View::Terminal ? HelpSection::Shown::Whole : HelpSection::Shown::Terminal;
    HelpPage page {topic, usage, {}};
    QStringList left;
    for (const HelpSection &s : sections) {
        if (s.shown != elsewhere)
            page.sections.append(s);
        else if (view == View::Terminal)
            left.append(s.heading.isEmpty() ? u"more"_s : s.heading);
    }
    if (!left.isEmpty()) {
        page.section().paragraph(u"Not shown here: %1. All of it: posenc help %2 --all, man posenc, and the user "
                                 "guide (Help > User guide)."_s.arg(left.join(u"; "_s), topic));
    }
    return page;
}

} // namespace posenc
