/**
 * Paragraphs any page of the lab's web may carry besides its topic's own sentences: the method
 * notes, caveats and context real reports and reviews are padded with. They state no fact of any
 * topic's truth (no figures), so a sentence cited from them is judged by whether the cited page says it.
 */
export const GENERIC_ZH = [
  '编者按：本文所用数据来自公开统计、行业协会发布的材料以及对企业和专家的访谈。不同来源在统计口径、时间范围和样本选择上存在差异，读者在引用时应当注意数据的出处和定义。对于尚未正式发布的数据，我们采用了多个来源交叉核对的方法，并在正文中尽量说明其不确定性。由于部分企业没有公开经营数据，相关估算可能与实际情况存在一定偏差。',
  '从产业发展的一般规律看，一项新技术从实验室走向大规模应用，通常要经历示范、早期商业化和规模化三个阶段。在示范阶段，成本高、可靠性有待验证，主要依靠政策支持和少数先行者推动；进入早期商业化阶段后，产业链开始配套，产品标准逐步建立；到了规模化阶段，成本快速下降，市场竞争加剧，行业集中度往往随之提高。判断一项技术处于哪个阶段，需要综合观察产能、出货、价格和应用场景的变化。',
  '需要说明的是，媒体报道和企业宣传中的数字往往口径不一。有的统计的是产能，有的统计的是产量，还有的统计的是订单或意向协议，这几类数字之间可能相差数倍。此外，年度数据和季度数据、全国数据和地方数据也常被混用。本文在比较不同来源的数字时，尽量选取口径一致的数据；无法统一口径时，会同时列出并说明差别。',
  '政策环境是影响行业发展的重要因素。近年来，国家和地方陆续出台了规划、补贴、标准和试点等多种政策工具，推动相关领域的发展。但政策的效果往往存在时滞，而且不同地区的执行力度差别较大。部分地方在政策退坡后出现了项目放缓的情况，这说明行业的可持续发展最终还要依靠市场化的商业模式，而不是长期依赖补贴。',
  '在研究方法上，本文采用了文献梳理、数据分析和案例研究相结合的方式。文献部分主要参考了近年来公开发表的学术论文和行业研究报告；数据部分以官方统计为主，辅以行业协会和第三方机构的数据；案例部分选取了若干具有代表性的地区和企业，通过实地调研和访谈了解其做法和经验。需要指出的是，案例的选择难免带有一定的主观性，其经验未必适用于所有地区。',
  '国际经验也值得借鉴。一些国家较早开展了相关探索，积累了制度设计、技术标准和市场培育等方面的经验，也走过一些弯路。比较不同国家的做法可以发现，稳定的政策预期、清晰的责任分工和充分的公众参与，是推动新技术和新服务落地的共同条件。当然，各国的国情和发展阶段不同，照搬外国经验并不可取，需要结合本国实际进行调整。',
  '展望未来，行业仍面临不少不确定性。技术路线之争尚未尘埃落定，原材料价格可能继续波动，市场需求也受到宏观经济环境的影响。与此同时，数字化和智能化正在改变行业的生产方式和服务模式。对于企业而言，既要把握发展机遇，也要防范产能过剩和同质化竞争的风险；对于政府而言，需要在鼓励创新和防范风险之间找到平衡。',
  '从需求侧看，用户的接受程度取决于价格、便利性和对新事物的信任。早期用户往往愿意为新技术或新服务支付溢价，但大众市场对价格更加敏感，也更看重口碑和售后保障。调查显示，许多潜在用户之所以持观望态度，并不是因为不认可其价值，而是担心使用过程中遇到问题时无人负责。因此，建立完善的售后服务网络和清晰的责任机制，对扩大市场同样重要。',
  '从供给侧看，产业链上下游的协同程度决定了行业能否稳定发展。上游原材料和关键零部件的供应是否充足、价格是否稳定，中游制造和集成环节的工艺是否成熟，下游运营和服务环节的商业模式是否清晰，都会影响整个行业的表现。部分环节的短板可能成为制约行业发展的瓶颈，需要通过技术攻关、人才培养和资本投入逐步补齐。',
  '地区之间的差异也不容忽视。东部沿海地区经济发达、市场化程度高，新技术和新服务推广较快；中西部地区虽然起步较晚，但在资源条件、土地成本和政策支持方面有自己的优势。城市和农村之间也存在明显的差距，农村地区在基础设施、人才和资金方面的短板更为突出。推动区域协调发展，需要因地制宜，避免一刀切。',
  '资本市场对行业的关注度在过去几年明显上升。大量资金涌入带来了产能的快速扩张，也带来了估值泡沫和重复建设的隐忧。一些企业在融资顺利时大举扩产，但在市场需求不及预期时陷入困境。投资者和企业都需要更加理性地看待行业的发展前景，关注企业的技术实力、成本控制能力和商业模式的可持续性，而不仅仅是规模的扩张。',
  '标准化工作是行业走向成熟的重要标志。统一的标准有利于降低交易成本、保障产品质量和促进公平竞争。目前，相关领域的国家标准、行业标准和团体标准正在陆续制定和完善，但仍存在标准体系不健全、部分标准滞后于技术发展等问题。加快标准的制定和修订，加强标准的实施和监督，是今后一个时期的重要任务。',
  '人才是行业发展的根本。随着行业规模的扩大，对研发、生产、运营和服务等各类人才的需求快速增长，而人才培养的周期较长，供需矛盾日益突出。高校和职业院校需要根据行业需求调整专业设置和课程内容，企业也应当加大在职培训的投入，建立合理的薪酬和职业发展体系，吸引和留住人才。',
  '安全问题始终是公众关注的焦点。任何一次严重的安全事故，都可能对整个行业的声誉造成打击，甚至引发政策的收紧。因此，企业必须把安全放在首位，从设计、生产、安装到运营维护的各个环节加强质量管理和风险防控。监管部门也需要完善安全标准和监管机制，加强事中事后监管，及时发现和处置安全隐患。',
  '公众沟通同样重要。许多误解源于信息不对称，一些不实传言在网络上广泛传播，影响了公众对行业的判断。行业协会、企业和研究机构应当加强科普宣传，用通俗易懂的方式介绍相关知识，及时回应社会关切。媒体在报道时也应当注意核实信息来源，避免以偏概全，为行业发展营造客观理性的舆论环境。',
  '环境影响也需要全生命周期地评估。一项技术在使用阶段可能减少了排放或资源消耗，但在原材料开采、生产制造和报废回收阶段可能带来新的环境压力。只有把各个阶段的影响都纳入考量，才能客观评价其综合效益。目前，相关的生命周期评价方法和数据库仍不完善，不同研究得出的结论差异较大，需要进一步统一方法、积累数据。回收利用体系的建设也应当与产业发展同步推进，避免出现“先污染、后治理”的局面。',
  '金融支持是推动行业发展的重要条件。除了传统的银行贷款，绿色债券、产业基金、融资租赁和资产证券化等金融工具也被越来越多地运用到相关领域。但中小企业和个人用户仍然普遍面临融资难、融资贵的问题，一些金融产品的门槛较高、期限与项目回报周期不匹配。金融机构需要加强对行业的研究，开发更有针对性的产品，同时建立科学的风险评估体系，在支持行业发展的同时防范金融风险。',
  '最后需要强调的是，本文的分析主要基于公开资料，难免存在疏漏和偏差。随着更多数据的发布和研究的深入，部分判断可能需要修正。我们欢迎读者批评指正，也将持续跟踪相关领域的最新进展，在后续报告中更新有关内容。文中观点仅代表作者个人，不代表任何机构的立场。',
];

export const GENERIC_EN = [
  'A note on sources: the figures in this article come from public statistics, industry associations and interviews with companies and experts. Sources differ in how they define and count things, in the period they cover and in the samples they draw on, so readers quoting them should check where each number comes from. Where data have not been formally published, we cross-checked several sources and say so in the text.',
  'New technologies usually pass through demonstration, early commercialisation and scale-up before they become ordinary. In the first stage costs are high and reliability is unproven, and progress depends on public support and a few pioneers. In the second, supply chains form and product standards emerge. In the third, costs fall quickly, competition sharpens and the market tends to consolidate around fewer, larger suppliers.',
  'Numbers quoted in the press and in company announcements are often not comparable. Some count capacity, some count output, and some count orders or letters of intent, and these can differ several times over. Annual and quarterly figures, and national and regional ones, are also frequently mixed up. When this article compares sources it uses figures on the same basis where possible and otherwise lists them side by side with the difference explained.',
  'Policy shapes these markets strongly. Governments have used plans, subsidies, standards and pilot programmes to encourage adoption, but the effects arrive with a delay and vary from one region to another. Several markets slowed when support was withdrawn or changed at short notice, which suggests that lasting growth depends on business models that work without permanent subsidy.',
  'Methodologically, this piece combines a review of the literature, an analysis of public data and a handful of case studies. The literature review draws on peer-reviewed papers and industry reports published in recent years. The case studies were chosen to illustrate different approaches rather than to be representative, so their lessons may not transfer to every setting, and their selection inevitably reflects some judgement on our part.',
  'Looking ahead, much remains uncertain. Competing technologies have not settled, input prices may swing again and demand depends on the wider economy. At the same time, digital tools are changing how products are sold, installed and maintained. Companies have to seize the opportunity without overbuilding, and public authorities have to balance encouragement of innovation against the risk of locking in the wrong choices.',
  'Finally, this analysis rests on public material and may contain errors or omissions. As more data are published and research advances, some of its judgements may need revising. We welcome corrections from readers and will continue to follow the field, updating this review as new evidence appears. The views expressed are those of the authors alone and do not represent any institution.',
];
