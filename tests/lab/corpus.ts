/**
 * The lab's web: topics in Chinese and English, each with pages that support its facts, one that
 * contradicts one of them, one that only shares its words, and a long one whose key fact lies past
 * the 3,000th character, where a writer that sees only the start of a page cannot reach it. The
 * ground truth sits beside the pages: which facts exist, how to recognise a sentence stating each,
 * and which pages support it. Everything here was written for the lab; the figures are the corpus's
 * own and describe no real market.
 */
import { GENERIC_EN, GENERIC_ZH } from './filler.ts';

export type LabLanguage = 'zh' | 'en';

export interface Fact {
  id: string;
  /** The sentence as the supporting pages state it. */
  statement: string;
  /** Every phrase must appear in a sentence for it to state this fact (compared without spaces, case aside). */
  key: string[];
  /** Paths of the pages that state it. */
  supportedBy: string[];
}

export interface Page {
  path: string;
  title: string;
  kind: 'support' | 'contradict' | 'irrelevant' | 'long';
  paragraphs: string[];
}

export interface Topic {
  id: string;
  language: LabLanguage;
  question: string;
  /** Whether the question leaves its scope open, so a good model asks before researching. */
  vague: boolean;
  facts: Fact[];
  /** The fact a page disagrees with, and the phrase of the disagreeing claim. */
  contradiction: { factId: string; path: string; key: string[] };
  /** The fact that only the long page states, past its 3,000th character. */
  deepFact: string;
  pages: Page[];
}

interface TopicText {
  id: string;
  language: LabLanguage;
  question: string;
  vague: boolean;
  facts: Array<Omit<Fact, 'supportedBy'> & { on: string[] }>;
  background: string[];
  contradiction: { factId: string; key: string[]; sentence: string };
  pages: { support: Array<{ slug: string; title: string; intro: string }>; contradict: { slug: string; title: string; intro: string }; irrelevant: { slug: string; title: string; paragraphs: string[] }; long: { slug: string; title: string; intro: string } };
}

/** `count` paragraphs of `list` from `start` on, wrapping around. */
const pick = (list: readonly string[], start: number, count: number) => Array.from({ length: count }, (_, offset) => list[(start * 3 + offset) % list.length]!);

/** Builds a topic's pages from its sentences, placing each fact where `on` says. */
function topic(text: TopicText): Topic {
  const generic = text.language === 'zh' ? GENERIC_ZH : GENERIC_EN;
  const path = (slug: string) => `/${text.id}/${slug}`;
  const factsOn = (slug: string) => text.facts.filter((fact) => fact.on.includes(slug)).map((fact) => fact.statement);
  const bg = text.background;
  // Chinese says in a character what English says in a word: more paragraphs make pages of like length.
  const padding = text.language === 'zh' ? 9 : 4;
  const support = text.pages.support.map(({ slug, title, intro }, index): Page => {
    const own = factsOn(slug);
    const turn = (index * 3) % bg.length;
    const rotated = [...bg.slice(turn), ...bg.slice(0, turn)];
    return {
      path: path(slug),
      title,
      kind: 'support',
      paragraphs: [intro, ...own.slice(0, 1), rotated.slice(0, 3).join(''), ...own.slice(1), rotated.slice(3, 6).join(''), ...pick(generic, index, padding)],
    };
  });
  const contra = text.pages.contradict;
  const contradicting: Page = {
    path: path(contra.slug),
    title: contra.title,
    kind: 'contradict',
    paragraphs: [contra.intro, text.contradiction.sentence, bg.slice(6).join(''), ...factsOn(contra.slug), ...pick(generic, 5, padding)],
  };
  const irrelevant: Page = { path: path(text.pages.irrelevant.slug), title: text.pages.irrelevant.title, kind: 'irrelevant', paragraphs: [...text.pages.irrelevant.paragraphs, ...pick(generic, 2, padding - 1)] };
  const longSlug = text.pages.long.slug;
  // The key fact goes after every background and generic paragraph, which together pass 3,000 characters.
  const long: Page = {
    path: path(longSlug),
    title: text.pages.long.title,
    kind: 'long',
    paragraphs: [text.pages.long.intro, bg.slice(0, 4).join(''), ...generic, bg.slice(4).join(''), ...factsOn(longSlug), generic[0]!],
  };
  const pages = [...support, contradicting, irrelevant, long];
  const facts = text.facts.map(({ on, ...fact }) => ({ ...fact, supportedBy: on.map(path) }));
  const deep = text.facts.find((fact) => fact.on.length === 1 && fact.on[0] === longSlug);
  if (!deep) throw new Error(`topic ${text.id} has no fact only its long page states`);
  return { id: text.id, language: text.language, question: text.question, vague: text.vague, facts, contradiction: { factId: text.contradiction.factId, path: path(contra.slug), key: text.contradiction.key }, deepFact: deep.id, pages };
}

export const TOPICS: Topic[] = [
  topic({
    id: 'sodium',
    language: 'zh',
    question: '2023年以来中国钠离子电池的产业化进展如何？请写一份研究报告。',
    vague: false,
    facts: [
      { id: 'shipments', statement: '2023年中国钠离子电池出货量约为3.2GWh，较上一年增长超过十倍。', key: ['3.2GWh'], on: ['industry-report', 'density-news', 'storage-projects'] },
      { id: 'cost', statement: '行业调研显示，钠离子电池电芯的平均成本约为每瓦时0.55元，仍高于磷酸铁锂电芯。', key: ['0.55元'], on: ['industry-report', 'cost-breakdown'] },
      { id: 'line', statement: '国内首条GWh级钠离子电池量产线于2023年6月在安徽阜阳投产。', key: ['阜阳'], on: ['industry-report', 'vehicle-use'] },
      { id: 'density', statement: '目前量产钠离子电芯的能量密度普遍在140至160Wh/kg之间。', key: ['140', '160Wh/kg'], on: ['density-news', 'vehicle-use'] },
      { id: 'cold', statement: '测试表明，钠离子电池在零下20℃时的容量保持率约为90%，明显好于磷酸铁锂电池。', key: ['20℃', '90%'], on: ['long-review'] },
      { id: 'hardcarbon', statement: '硬碳负极材料的市场价格约为每吨7万元，占钠离子电芯材料成本的三成左右。', key: ['7万元'], on: ['cost-breakdown'] },
      { id: 'storage', statement: '2024年5月，国内首座百兆瓦时级钠离子电池储能电站在广西南宁投入运行。', key: ['南宁'], on: ['storage-projects', 'outlook-2030'] },
      { id: 'forecast', statement: '研究机构预测，到2030年钠离子电池的年需求量有望达到150GWh左右。', key: ['150GWh'], on: ['outlook-2030'] },
    ],
    background: [
      '钠离子电池的工作原理与锂离子电池相似，依靠钠离子在正负极之间往返嵌入和脱出完成充放电。',
      '钠资源在地壳中储量丰富、分布广泛，不像锂资源那样高度集中于少数国家。',
      '正极材料主要有层状氧化物、聚阴离子化合物和普鲁士蓝类化合物三条技术路线。',
      '负极方面，硬碳是目前最成熟的选择，但其前驱体和烧结工艺仍在不断优化。',
      '由于钠离子体积较大，电池在循环寿命和倍率性能上需要专门的材料设计。',
      '两轮电动车、低速车和储能电站被认为是钠离子电池最先落地的应用场景。',
      '碳酸锂价格在2022年大幅上涨，曾推动整车企业和储能企业寻找替代方案。',
      '随着锂价回落，钠离子电池的成本优势被削弱，部分项目放慢了扩产节奏。',
      '标准体系方面，行业组织正在推进钠离子电池术语、安全和性能测试方法等标准的制定。',
    ],
    contradiction: { factId: 'cost', key: ['0.38元'], sentence: '不过也有券商报告认为，规模化后钠离子电池电芯成本已降至每瓦时0.38元，低于磷酸铁锂。' },
    pages: {
      support: [
        { slug: 'industry-report', title: '钠离子电池产业发展年度报告（2024）', intro: '本报告梳理了过去一年钠离子电池在材料、电芯、产能和应用方面的进展。' },
        { slug: 'density-news', title: '钠电池装车提速：能量密度与出货量双双提升', intro: '记者近日走访多家电池企业，了解钠离子电池的量产和装车情况。' },
        { slug: 'cost-breakdown', title: '钠离子电池成本拆解：材料、制造与规模效应', intro: '钠离子电池的成本由正极、负极、电解液和制造费用构成，本文逐项拆解中国钠离子电池的成本现状。' },
        { slug: 'storage-projects', title: '钠离子电池储能电站项目盘点', intro: '储能是钠离子电池产业化最受关注的方向之一，本文盘点国内已经投运和在建的项目。' },
        { slug: 'vehicle-use', title: '钠离子电池上车记：两轮车与微型车的应用', intro: '钠离子电池能否在电动车上大规模应用，业内看法不一，本文梳理装车应用的现状和问题。' },
        { slug: 'outlook-2030', title: '钠离子电池的下一个五年', intro: '站在产业化的关键阶段，钠离子电池还要解决哪些问题？本文对中国钠离子电池的前景进行展望。' },
      ],
      contradict: { slug: 'cost-debate', title: '钠电池成本之争：已经比锂电便宜了吗？', intro: '关于钠离子电池是否已经具备成本优势，业内观点并不一致。' },
      irrelevant: {
        slug: 'salt-health',
        title: '少吃盐：膳食中的钠与血压健康',
        paragraphs: [
          '膳食指南建议成年人每天食盐摄入量不超过5克，而我国居民的实际摄入量长期偏高。',
          '钠摄入过多会增加高血压的风险，进而提高心脑血管疾病的发生率。',
          '除了食盐，酱油、咸菜和加工食品中也含有大量的钠，购买时可以留意营养成分表。',
          '减盐可以从家庭烹饪做起，例如使用限盐勺、出锅前再放盐，以及用醋和香料提味。',
        ],
      },
      long: { slug: 'long-review', title: '钠离子电池技术综述：材料、性能与应用前景', intro: '本文从材料体系、电化学性能、安全性和应用场景四个方面综述钠离子电池的研究与产业化现状。' },
    },
  }),
  topic({
    id: 'rooftop',
    language: 'zh',
    question: '城市屋顶光伏值得推广吗？',
    vague: true,
    facts: [
      { id: 'distributed', statement: '2023年全国分布式光伏新增装机约96GW，占光伏新增装机的四成以上。', key: ['96GW'], on: ['annual-stats', 'payback-analysis', 'market-data'] },
      { id: 'payback', statement: '测算显示，工商业屋顶光伏项目的投资回收期一般在6年左右。', key: ['6年'], on: ['payback-analysis', 'city-cases'] },
      { id: 'household', statement: '其中户用光伏新增装机约43GW，主要集中在山东、河南和河北等省份。', key: ['43GW'], on: ['annual-stats', 'market-data'] },
      { id: 'load', statement: '在既有建筑屋顶加装光伏组件，一般会增加每平方米约15千克的荷载，需要事先评估结构安全。', key: ['15千克'], on: ['payback-analysis', 'residential-guide'] },
      { id: 'counties', statement: '纳入整县推进屋顶分布式光伏试点的县（市、区）共有676个。', key: ['676'], on: ['policy-review'] },
      { id: 'modules', statement: '到2023年底，光伏组件价格已降至每瓦1元左右，比年初下降约四成。', key: ['每瓦1元'], on: ['city-cases', 'market-data'] },
      { id: 'constrained', statement: '山东等地已有超过150个县的配电网被评估为分布式光伏接入受限区域。', key: ['150个县'], on: ['grid-access'] },
    ],
    background: [
      '屋顶光伏是指安装在建筑屋顶上的光伏发电系统，发出的电可以自用，也可以上网出售。',
      '与集中式电站相比，屋顶光伏靠近用电负荷，可以减少输电损耗。',
      '工商业厂房屋顶面积大、白天用电多，是屋顶光伏最常见的安装场所。',
      '城市住宅屋顶产权分散，加装光伏往往需要业主委员会和物业的协调。',
      '分布式光伏大量接入后，部分地区配电网出现了反向送电和电压越限的问题。',
      '一些地方开始试行分布式光伏的可开放容量公示，引导项目有序接入。',
      '光伏组件价格在过去两年持续下降，降低了屋顶项目的初始投资。',
      '屋顶光伏的收益受当地日照条件、自用比例和电价政策的影响很大。',
      '在台风和冰雹多发地区，组件的抗风和抗冲击性能需要特别关注。',
    ],
    contradiction: { factId: 'payback', key: ['10年以上'], sentence: '但也有业主反映，由于自用比例低、上网电价下调，他们的屋顶光伏项目回收期拉长到了10年以上。' },
    pages: {
      support: [
        { slug: 'annual-stats', title: '2023年光伏发电建设运行情况', intro: '根据年度统计，光伏发电继续保持快速增长，分布式光伏成为新增装机的重要组成部分。' },
        { slug: 'payback-analysis', title: '屋顶光伏的经济账：投资、收益与风险', intro: '屋顶光伏到底划不划算？本文从投资、收益和结构安全三个角度进行分析。' },
        { slug: 'market-data', title: '屋顶光伏市场观察：装机与组件价格', intro: '本文汇总城市屋顶光伏的装机、价格和市场数据，帮助读者了解推广现状。' },
        { slug: 'city-cases', title: '几座城市的屋顶光伏实践', intro: '多个城市在公共建筑和工业园区推广屋顶光伏，本文比较这些案例的成本和收益。' },
        { slug: 'grid-access', title: '分布式光伏接入配电网的难题', intro: '屋顶光伏快速增长，也给城市配电网带来了新的问题，本文分析接入的难点和前景。' },
        { slug: 'residential-guide', title: '住宅屋顶装光伏之前要知道的事', intro: '城市住宅屋顶加装光伏涉及产权、结构和安全等问题，本文给出推广和安装的建议。' },
      ],
      contradict: { slug: 'owner-stories', title: '屋顶光伏业主调查：收益不如预期？', intro: '我们采访了十几位安装屋顶光伏的业主，他们的经历各不相同。' },
      irrelevant: {
        slug: 'roof-garden',
        title: '城市屋顶花园的设计与养护',
        paragraphs: [
          '屋顶花园可以改善城市热岛效应，也为居民提供了休闲空间。',
          '设计屋顶花园时，要先做好防水层和排水层，避免植物根系破坏屋面。',
          '适合屋顶种植的植物应当耐旱、耐晒、根系较浅，例如佛甲草和薰衣草。',
          '日常养护包括定期浇水、修剪和检查排水口是否堵塞。',
        ],
      },
      long: { slug: 'policy-review', title: '屋顶分布式光伏政策演变与试点经验', intro: '本文回顾近年来屋顶分布式光伏的政策变化，并总结各地试点的经验和问题。' },
    },
  }),
  topic({
    id: 'eldercare',
    language: 'zh',
    question: '2022年以来中国社区居家养老服务的供给和护理人力缺口有多大？',
    vague: false,
    facts: [
      { id: 'population', statement: '截至2023年底，全国60岁及以上人口约2.97亿，占总人口的21.1%。', key: ['2.97亿'], on: ['aging-bulletin', 'workforce-report', 'future-outlook'] },
      { id: 'gap', statement: '按照现有老年人失能比例测算，养老护理员的缺口约为550万人。', key: ['550万'], on: ['workforce-report', 'caregiver-pay'] },
      { id: 'coverage', statement: '城市社区养老服务设施的覆盖率已经达到87%左右。', key: ['87%'], on: ['aging-bulletin', 'community-centers'] },
      { id: 'beds', statement: '全国每千名老年人拥有的养老床位约为32张。', key: ['32张'], on: ['aging-bulletin', 'home-care-supply'] },
      { id: 'ltc', statement: '长期护理保险制度试点已经扩大到49个城市，参保人数超过1.8亿。', key: ['49个城市'], on: ['policy-long'] },
      { id: 'meals', statement: '全国已建成老年助餐服务点约7.5万个，覆盖大部分城市街道。', key: ['7.5万个'], on: ['community-centers', 'future-outlook'] },
      { id: 'wage', statement: '调查显示，养老护理员的月平均工资约为4500元，一线人员的年流失率接近四成。', key: ['4500元'], on: ['caregiver-pay'] },
    ],
    background: [
      '居家养老、社区养老和机构养老构成了我国养老服务体系的三个层次。',
      '大多数老年人希望在熟悉的家庭和社区环境中养老，而不是住进养老院。',
      '社区养老服务中心通常提供日间照料、助餐、助浴和康复护理等服务。',
      '养老护理员工作强度大、收入偏低，人员流动性一直较高。',
      '一些城市通过政府购买服务的方式，引入专业机构运营社区养老设施。',
      '智慧养老平台可以帮助社区掌握老年人的健康状况和服务需求。',
      '农村地区的养老服务设施和人员配置与城市相比仍有明显差距。',
      '失能和半失能老人的照护需求最为迫切，对专业护理能力的要求也最高。',
      '职业院校开设的老年服务与管理专业，为行业输送了一批年轻从业者。',
    ],
    contradiction: { factId: 'gap', key: ['200万'], sentence: '另一项研究采用不同的照护标准，认为养老护理员的实际缺口约为200万人。' },
    pages: {
      support: [
        { slug: 'aging-bulletin', title: '老龄事业发展统计公报解读', intro: '最新公报显示，我国人口老龄化程度继续加深，养老服务供给稳步增加。' },
        { slug: 'workforce-report', title: '养老护理人才队伍建设调研报告', intro: '本报告基于对多个城市养老机构和社区服务中心的调研，分析护理人才的供需状况。' },
        { slug: 'community-centers', title: '走进社区养老服务中心', intro: '社区居家养老服务中心是养老服务供给的重要载体，本文汇总其建设和运营数据。' },
        { slug: 'caregiver-pay', title: '养老护理员的收入与去留', intro: '护理人力缺口的背后是薪酬和职业发展问题，本文调查养老护理员的收入和流失情况。' },
        { slug: 'home-care-supply', title: '居家养老服务由谁来提供', intro: '居家养老服务由谁提供、谁来付费，各地做法不同，争议也不少。' },
        { slug: 'future-outlook', title: '老龄化加速下的社区养老', intro: '面对快速老龄化，社区居家养老服务还存在哪些问题？本文对其前景进行分析。' },
      ],
      contradict: { slug: 'gap-estimates', title: '养老护理员缺口到底有多大？不同测算的比较', intro: '关于养老护理员的缺口，各方给出的数字相差很大。' },
      irrelevant: {
        slug: 'pet-care',
        title: '社区宠物寄养服务指南',
        paragraphs: [
          '越来越多的社区出现了宠物寄养和上门喂养服务，方便主人出差或旅行。',
          '选择寄养服务时，要查看机构的卫生条件和是否要求宠物完成疫苗接种。',
          '上门喂养服务的价格一般按次计算，节假日会有所上涨。',
          '主人应提前告知宠物的饮食习惯和健康状况，减少宠物的应激反应。',
        ],
      },
      long: { slug: 'policy-long', title: '我国养老服务政策的演进与展望', intro: '本文系统梳理了近十年来养老服务领域的主要政策，并对未来的改革方向提出建议。' },
    },
  }),
  topic({
    id: 'heatpumps',
    language: 'en',
    question: 'How fast have heat pumps been adopted in Europe since 2020, and what holds them back?',
    vague: false,
    facts: [
      { id: 'sales', statement: 'About 3.0 million heat pumps were sold in Europe in 2022, a record year for the market.', key: ['3.0 million'], on: ['market-report', 'installer-shortage', 'market-figures'] },
      { id: 'decline', statement: 'Heat pump sales in Europe fell by about 5% in 2023 as gas prices eased and subsidies changed.', key: ['5%'], on: ['market-report', 'market-figures'] },
      { id: 'cop', statement: 'A well-installed air-source heat pump typically reaches a seasonal coefficient of performance of 3 to 4.', key: ['3 to 4'], on: ['market-report', 'cold-climate'] },
      { id: 'installers', statement: 'Industry groups estimate that Europe needs some 750,000 additional installers by 2030.', key: ['750,000'], on: ['installer-shortage', 'subsidy-policy'] },
      { id: 'norway', statement: 'Norway leads Europe with about 632 heat pumps installed per 1,000 households.', key: ['632'], on: ['country-review'] },
      { id: 'price', statement: 'An air-source heat pump for a typical home costs between 8,000 and 14,000 euros to buy and install.', key: ['8,000', '14,000'], on: ['cost-comparison', 'cold-climate'] },
      { id: 'germany', statement: 'Germany set a target of installing 500,000 heat pumps a year from 2024 onwards.', key: ['500,000'], on: ['subsidy-policy', 'market-figures'] },
    ],
    background: [
      'A heat pump moves heat from the outside air, the ground or water into a building instead of burning fuel. ',
      'Because it moves heat rather than generating it, a heat pump can deliver several units of heat for each unit of electricity. ',
      'Air-source models are the most common in Europe because they are cheaper and easier to install than ground-source systems. ',
      'Older buildings with poor insulation may need upgrades before a heat pump can keep them warm on the coldest days. ',
      'The running cost of a heat pump depends heavily on the ratio between electricity and gas prices. ',
      'Several countries have announced plans to phase out new fossil-fuel boilers over the coming decade. ',
      'Noise from outdoor units has become a planning issue in some dense urban neighbourhoods. ',
      'Manufacturers have announced new factories in Europe to reduce reliance on imported components. ',
      'Refrigerants with a lower global warming potential, such as propane, are becoming more common in new models. ',
    ],
    contradiction: { factId: 'decline', key: ['8%'], sentence: 'A trade newsletter, by contrast, claimed that European heat pump sales grew by 8% in 2023 despite the subsidy debate. ' },
    pages: {
      support: [
        { slug: 'market-report', title: 'European Heat Pump Market Report 2024', intro: 'This report reviews heat pump sales, performance and policy across European markets.' },
        { slug: 'installer-shortage', title: 'The installer bottleneck: can Europe train enough heat pump fitters?', intro: 'Demand for heat pumps has outpaced the number of people qualified to install them.' },
        { slug: 'market-figures', title: 'European heat pump sales, year by year', intro: 'This overview collects the sales figures of the European heat pump market since 2020.' },
        { slug: 'cost-comparison', title: 'Heat pump or gas boiler? What a European household pays', intro: 'Whether a heat pump pays off depends on what it costs to buy and to run, and the evidence is disputed.' },
        { slug: 'subsidy-policy', title: 'How European subsidies shape the heat pump market', intro: 'Subsidies and rules have driven heat pump adoption in Europe, and their changes hold it back.' },
        { slug: 'cold-climate', title: 'Heat pumps in cold European winters', intro: 'A common objection to heat pumps in Europe is that they struggle in cold weather.' },
      ],
      contradict: { slug: 'trade-newsletter', title: 'Heat pump sales keep climbing, says trade newsletter', intro: 'Not every source agrees that the European heat pump market cooled last year.' },
      irrelevant: {
        slug: 'pool-pumps',
        title: 'Choosing a swimming pool pump for a European summer',
        paragraphs: [
          'A pool pump circulates water through the filter and keeps the water clear during the swimming season. ',
          'Variable-speed pumps cost more to buy but use far less electricity than single-speed models. ',
          'The right pump size depends on the volume of the pool and the length of the pipe run. ',
          'Running the pump at night can take advantage of cheaper off-peak electricity tariffs in some countries. ',
        ],
      },
      long: { slug: 'country-review', title: 'Heat pumps country by country: a long review of European adoption', intro: 'This review compares how European countries have adopted heat pumps and what explains the differences.' },
    },
  }),
  topic({
    id: 'microplastics',
    language: 'en',
    question: 'Are microplastics in drinking water a health risk?',
    vague: true,
    facts: [
      { id: 'bottled', statement: 'A widely cited 2018 study found microplastic particles in 93% of bottled water samples from 11 brands.', key: ['93%'], on: ['bottled-study', 'treatment-brief', 'monitoring-data'] },
      { id: 'tap', statement: 'A global survey detected microplastic fibres in 83% of tap water samples.', key: ['83%'], on: ['bottled-study', 'monitoring-data'] },
      { id: 'who', statement: 'In 2019 the WHO concluded that there was no evidence of a health risk from microplastics at the levels found in drinking water.', key: ['2019', 'WHO'], on: ['treatment-brief', 'health-evidence'] },
      { id: 'treatment', statement: 'Conventional drinking water treatment removes more than 90 percent of microplastic particles.', key: ['90 percent'], on: ['treatment-brief', 'home-filters'] },
      { id: 'nano', statement: 'A 2024 imaging study counted on average about 240,000 plastic particles per litre of bottled water, most of them nanoplastics.', key: ['240,000'], on: ['research-review'] },
      { id: 'filters', statement: 'In laboratory tests, reverse osmosis home filters removed more than 99% of microplastic particles from tap water.', key: ['99%'], on: ['home-filters'] },
      { id: 'california', statement: 'California became the first jurisdiction to require testing of drinking water for microplastics, in 2022.', key: ['California'], on: ['regulation-outlook', 'monitoring-data'] },
    ],
    background: [
      'Microplastics are plastic particles smaller than five millimetres, and nanoplastics are smaller than one micrometre. ',
      'They come from the breakdown of larger plastic items, from synthetic textiles and from tyre wear. ',
      'Studies of microplastics use different sampling and counting methods, which makes their results hard to compare. ',
      'Laboratory contamination is a known problem, because plastic is present in air, clothing and equipment. ',
      'Researchers are still working out how particles of different sizes behave once they are swallowed. ',
      'Most ingested microplastics are thought to pass through the gut, but the smallest particles may be absorbed. ',
      'Some plastics carry additives and absorbed chemicals whose effects are studied separately from the particles themselves. ',
      'Regulators have asked for standard methods so that monitoring results from different laboratories can be compared. ',
      'Reducing plastic waste at the source is widely seen as more effective than removing particles later. ',
    ],
    contradiction: { factId: 'tap', key: ['one in five'], sentence: 'A later re-analysis with stricter contamination controls found fibres in fewer than one in five tap water samples. ' },
    pages: {
      support: [
        { slug: 'bottled-study', title: 'Plastic particles in bottled and tap water: what the studies found', intro: 'Several studies have tested bottled and tap water for plastic particles.' },
        { slug: 'treatment-brief', title: 'Microplastics in drinking water: a brief for water utilities', intro: 'This brief summarises what is known about microplastics in drinking water and how treatment affects them.' },
        { slug: 'health-evidence', title: 'What we know about microplastics and human health', intro: 'Whether the microplastics people drink are a health risk is still an open question.' },
        { slug: 'monitoring-data', title: 'Monitoring microplastics in tap and bottled water', intro: 'Monitoring programmes are starting to report how many microplastics drinking water holds.' },
        { slug: 'home-filters', title: 'Do home water filters remove microplastics?', intro: 'Many households now filter their drinking water to remove microplastics, with mixed evidence.' },
        { slug: 'regulation-outlook', title: 'Rules for microplastics in drinking water', intro: 'Regulators are starting to set rules for microplastics in drinking water, and face several obstacles.' },
      ],
      contradict: { slug: 'reanalysis', title: 'Re-counting microplastics in tap water', intro: 'Counting microplastics is harder than it looks, and early numbers have been questioned.' },
      irrelevant: {
        slug: 'reusable-bottles',
        title: 'Best reusable water bottles for hiking',
        paragraphs: [
          'A good hiking bottle should be light, durable and easy to clean. ',
          'Stainless steel bottles keep drinks cold for hours but weigh more than plastic ones. ',
          'Soft flasks fold down when empty and are popular with trail runners. ',
          'Whatever bottle you choose, rinse it after every trip and let it dry with the lid off. ',
        ],
      },
      long: { slug: 'research-review', title: 'Microplastics and human health: a long review of the evidence', intro: 'This review looks at how people are exposed to micro- and nanoplastics and what the evidence says about harm.' },
    },
  }),
];

/** Every page by its path. */
export const PAGES: ReadonlyMap<string, Page & { topic: Topic }> = new Map(TOPICS.flatMap((entry) => entry.pages.map((page) => [page.path, { ...page, topic: entry }] as const)));

/** A page's text as a reader extracts it: its paragraphs, one per line. */
export const pageText = (page: Page): string => [page.title, ...page.paragraphs].join('\n');
