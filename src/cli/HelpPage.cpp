#include "HelpPage.h"

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

HelpSection &HelpPage::section(const QString &heading)
{
    sections.append(HelpSection {heading, {}});
    return sections.last();
}

} // namespace posenc
