"""Landmarks people go to by name ("take me to the Eiffel Tower", "vai até ao Cristo
Redentor"), written by hand and added to the gazetteer's places (`Gazetteer.load`): name,
other names in any language (`|`-separated), country (ISO alpha-2), longitude, latitude. A
landmark named exactly comes before a place of that name ("Alhambra" is the palace in Granada,
"Fuji" the mountain); the features of the project's own layers are not here (a layer's "Belém
Tower" is found in the layer).
"""

from __future__ import annotations

ZOOM = 15.0  # a landmark is shown this close, unless it is wide
WIDE = {"Great Wall of China": 8.0, "Serengeti": 8.0, "Yellowstone": 9.0, "Salar de Uyuni": 9.0,
        "Grand Canyon": 10.0, "Ha Long Bay": 10.0, "Torres del Paine": 10.0, "Panama Canal": 10.0,
        "Loch Ness": 10.0, "Mount Everest": 11.0, "Mount Kilimanjaro": 11.0, "Mount Fuji": 11.0,
        "Milford Sound": 11.0, "Mont Blanc": 12.0, "Matterhorn": 12.0, "Zugspitze": 12.0,
        "Mount Vesuvius": 12.0, "Plitvice Lakes": 12.0, "Perito Moreno Glacier": 12.0,
        "Uluru": 13.0, "Table Mountain": 13.0, "Iguazu Falls": 13.0, "Victoria Falls": 13.0,
        "Valley of the Kings": 13.0, "Meteora": 13.0, "Cliffs of Moher": 13.0,
        "Giant's Causeway": 13.0, "Niagara Falls": 14.0, "Serra da Estrela": 11.0,
        "Peneda-Gerês National Park": 10.0,
        "Sagres Fortress": 13.0, "Serra de Monchique": 11.0}  # fmt: skip
LANDMARKS: list[tuple[str, str, str, float, float]] = [
    ("Eiffel Tower", "Tour Eiffel|Torre Eiffel|Eiffelturm", "FR", 2.2945, 48.8584),
    ("Louvre",
     "Louvre Museum|Musée du Louvre|"
     "Museo del Louvre|Museu do Louvre|Louvre-Museum", "FR", 2.3376, 48.8606),
    ("Notre-Dame de Paris",
     "Notre Dame|Notre-Dame|Notre Dame Cathedral|Cathédrale Notre-Dame de Paris|"
     "Catedral de Notre Dame", "FR", 2.3499, 48.8530),
    ("Arc de Triomphe", "Arco del Triunfo|Arco do Triunfo|Triumphbogen", "FR", 2.2950, 48.8738),
    ("Sacré-Cœur",
     "Sacre Coeur|Sacré-Coeur|"
     "Basilique du Sacré-Cœur|Basilica of the Sacred Heart", "FR", 2.3431, 48.8867),
    ("Palace of Versailles",
     "Versailles Palace|Château de Versailles|Palacio de Versalles|Palácio de Versalhes|"
     "Schloss Versailles", "FR", 2.1204, 48.8049),
    ("Mont Saint-Michel", "Le Mont-Saint-Michel|Monte Saint-Michel", "FR", -1.5115, 48.6361),
    ("Mont Blanc", "Monte Bianco|Montblanc|Monte Branco", "FR", 6.8652, 45.8326),
    ("Statue of Liberty",
     "Statue de la Liberté|Estatua de la Libertad|"
     "Estátua da Liberdade|Freiheitsstatue", "US", -74.0445, 40.6892),
    ("Empire State Building", "Edificio Empire State", "US", -73.9857, 40.7484),
    ("Times Square", "", "US", -73.9855, 40.7580),
    ("Central Park", "", "US", -73.9654, 40.7829),
    ("Brooklyn Bridge",
     "Puente de Brooklyn|Ponte do Brooklyn|Ponte de Brooklyn|Pont de Brooklyn|"
     "Brooklyn-Brücke", "US", -73.9969, 40.7061),
    ("One World Trade Center", "World Trade Center|Freedom Tower", "US", -74.0134, 40.7127),
    ("Golden Gate Bridge",
     "Golden Gate|Puente Golden Gate|Ponte Golden Gate|Pont du Golden Gate|"
     "Golden-Gate-Brücke", "US", -122.4783, 37.8199),
    ("Alcatraz",
     "Alcatraz Island|Isla de Alcatraz|Ilha de Alcatraz|Île d'Alcatraz", "US", -122.4230, 37.8267),
    ("Hollywood Sign",
     "Letrero de Hollywood|Letreiro de Hollywood|Hollywood-Schriftzug", "US", -118.3215, 34.1341),
    ("Grand Canyon",
     "Grand Canyon National Park|Gran Cañón|"
     "Gran Cañón del Colorado|Grand Cañon", "US", -112.1129, 36.1069),
    ("White House",
     "Casa Blanca|Casa Branca|Maison Blanche|Weißes Haus|Weisses Haus", "US", -77.0365, 38.8977),
    ("United States Capitol",
     "US Capitol|U.S. Capitol|Capitolio de los Estados Unidos|Capitólio dos Estados Unidos|"
     "Capitole des États-Unis", "US", -77.0091, 38.8899),
    ("Lincoln Memorial", "", "US", -77.0502, 38.8893),
    ("Mount Rushmore", "Monte Rushmore|Mont Rushmore", "US", -103.4591, 43.8791),
    ("Yellowstone",
     "Yellowstone National Park|Parque Nacional de Yellowstone|"
     "Parc national de Yellowstone|Yellowstone-Nationalpark", "US", -110.5885, 44.4280),
    ("Hoover Dam",
     "Presa Hoover|Represa Hoover|Barrage Hoover|Hoover-Damm", "US", -114.7377, 36.0161),
    ("Space Needle", "", "US", -122.3493, 47.6205),
    ("Niagara Falls",
     "Cataratas del Niágara|Cataratas do Niágara|"
     "Chutes du Niagara|Niagarafälle", "CA", -79.0742, 43.0799),
    ("CN Tower", "Torre CN|Tour CN", "CA", -79.3871, 43.6426),
    ("Christ the Redeemer",
     "Cristo Redentor|Christ Rédempteur|Le Christ Rédempteur|Christusstatue|"
     "Cristo del Corcovado|Corcovado", "BR", -43.2105, -22.9519),
    ("Sugarloaf Mountain",
     "Sugarloaf|Pão de Açúcar|Pan de Azúcar|Pain de Sucre|Zuckerhut", "BR", -43.1566, -22.9486),
    ("Iguazu Falls",
     "Iguaçu Falls|Cataratas del Iguazú|Cataratas do Iguaçu|Chutes d'Iguazú|"
     "Iguazú-Wasserfälle", "AR", -54.4367, -25.6953),
    ("Perito Moreno Glacier",
     "Glaciar Perito Moreno|"
     "Glacier Perito Moreno|Perito-Moreno-Gletscher", "AR", -73.0486, -50.4967),
    ("Machu Picchu", "Machupicchu|Machu Pichu", "PE", -72.5450, -13.1631),
    ("Chichén Itzá", "Chichen Itza", "MX", -88.5678, 20.6843),
    ("Teotihuacan", "Teotihuacán", "MX", -98.8435, 19.6925),
    ("Salar de Uyuni", "Uyuni Salt Flat|Salar d'Uyuni", "BO", -67.4891, -20.1338),
    ("Torres del Paine",
     "Torres del Paine National Park|Parque Nacional Torres del Paine", "CL", -72.9850, -50.9423),
    ("Panama Canal",
     "Canal de Panamá|Canal do Panamá|Canal de Panama|Panamakanal", "PA", -79.6800, 9.1200),
    ("Big Ben",
     "Elizabeth Tower|Palace of Westminster|Houses of Parliament|Palacio de Westminster|"
     "Palais de Westminster", "GB", -0.1246, 51.5007),
    ("Tower of London", "Torre de Londres|Tour de Londres", "GB", -0.0759, 51.5081),
    ("Tower Bridge", "Puente de la Torre", "GB", -0.0754, 51.5055),
    ("Buckingham Palace",
     "Palacio de Buckingham|Palácio de Buckingham|"
     "Palais de Buckingham|Buckingham-Palast", "GB", -0.1419, 51.5014),
    ("London Eye", "", "GB", -0.1196, 51.5033),
    ("Stonehenge", "", "GB", -1.8262, 51.1789),
    ("Edinburgh Castle",
     "Castillo de Edimburgo|Castelo de Edimburgo|Château d'Édimbourg", "GB", -3.2008, 55.9486),
    ("Giant's Causeway",
     "Calzada del Gigante|Calçada dos Gigantes|Chaussée des Géants", "GB", -6.5116, 55.2408),
    ("Loch Ness", "Lago Ness|Lac Ness", "GB", -4.4244, 57.3229),
    ("Cliffs of Moher",
     "Acantilados de Moher|Falésias de Moher|Falaises de Moher", "IE", -9.4309, 52.9715),
    ("Colosseum",
     "Coliseum|Colosseo|Coliseo|Coliseu|"
     "Colisée|Kolosseum|Coliseo de Roma|Coliseu de Roma", "IT", 12.4922, 41.8902),
    ("Trevi Fountain",
     "Fontana di Trevi|Fontana de Trevi|Fuente de Trevi|Fonte de Trevi|Fontaine de Trevi|"
     "Trevi-Brunnen|Trevibrunnen", "IT", 12.4833, 41.9009),
    ("Roman Forum", "Foro Romano|Fórum Romano|Forum romain|Forum Romanum", "IT", 12.4853, 41.8925),
    ("St. Peter's Basilica",
     "St Peter's Basilica|Saint Peter's Basilica|Basílica de San Pedro|"
     "Basílica de São Pedro|Basilique Saint-Pierre|Petersdom", "VA", 12.4534, 41.9022),
    ("Sistine Chapel",
     "Capilla Sixtina|Capela Sistina|"
     "Chapelle Sixtine|Sixtinische Kapelle|Cappella Sistina", "VA", 12.4545, 41.9029),
    ("Leaning Tower of Pisa",
     "Tower of Pisa|Torre di Pisa|Torre de Pisa|Tour de Pise|Schiefer Turm von Pisa|"
     "Torre inclinada de Pisa|Torre pendente di Pisa", "IT", 10.3966, 43.7230),
    ("Rialto Bridge",
     "Ponte di Rialto|Puente de Rialto|"
     "Ponte de Rialto|Pont du Rialto|Rialtobrücke", "IT", 12.3358, 45.4380),
    ("St Mark's Square",
     "Piazza San Marco|Plaza de San Marcos|Praça de São Marcos|Place Saint-Marc|"
     "Markusplatz", "IT", 12.3380, 45.4341),
    ("Pompeii", "Pompeya|Pompeia|Pompéi|Pompeji", "IT", 14.4850, 40.7490),
    ("Mount Vesuvius", "Vesuvius|Vesuvio|Vesubio|Vesúvio|Vésuve|Vesuv", "IT", 14.4260, 40.8210),
    ("Milan Cathedral",
     "Duomo di Milano|Catedral de Milán|Catedral de Milão|Cathédrale de Milan|"
     "Mailänder Dom", "IT", 9.1919, 45.4642),
    ("Sagrada Familia", "Sagrada Família|Basílica de la Sagrada Familia", "ES", 2.1744, 41.4036),
    ("Park Güell", "Parque Güell|Parc Güell", "ES", 2.1527, 41.4145),
    ("Alhambra", "Alhambra de Granada|Alhambra of Granada", "ES", -3.5881, 37.1761),
    ("Prado Museum",
     "Museo del Prado|Museu do Prado|Musée du Prado|Prado-Museum", "ES", -3.6921, 40.4138),
    ("Royal Palace of Madrid",
     "Palacio Real de Madrid|"
     "Palácio Real de Madrid|Palais royal de Madrid", "ES", -3.7143, 40.4180),
    ("Mosque-Cathedral of Córdoba",
     "Mosque of Córdoba|Mezquita de Córdoba|Mezquita-Catedral de Córdoba|"
     "Mesquita de Córdova|Mosquée-cathédrale de Cordoue", "ES", -4.7794, 37.8789),
    ("Guggenheim Museum Bilbao",
     "Guggenheim Bilbao|"
     "Museo Guggenheim Bilbao|Musée Guggenheim de Bilbao", "ES", -2.9340, 43.2687),
    ("Pena Palace", "Palácio da Pena|Palacio da Pena|Palais de Pena", "PT", -9.3904, 38.7876),
    ("Cristo Rei", "Santuário de Cristo Rei", "PT", -9.1712, 38.6786),
    ("Brandenburg Gate",
     "Brandenburger Tor|Puerta de Brandeburgo|Portão de Brandemburgo|Porta de Brandemburgo|"
     "Porte de Brandebourg", "DE", 13.3777, 52.5163),
    ("Reichstag", "Reichstag Building|Reichstagsgebäude", "DE", 13.3761, 52.5186),
    ("Checkpoint Charlie", "", "DE", 13.3904, 52.5075),
    ("East Side Gallery", "", "DE", 13.4399, 52.5050),
    ("Neuschwanstein Castle",
     "Neuschwanstein|Schloss Neuschwanstein|Castillo de Neuschwanstein|"
     "Castelo de Neuschwanstein|Château de Neuschwanstein", "DE", 10.7498, 47.5576),
    ("Cologne Cathedral",
     "Kölner Dom|Catedral de Colonia|"
     "Catedral de Colónia|Cathédrale de Cologne", "DE", 6.9583, 50.9413),
    ("Zugspitze", "", "DE", 10.9863, 47.4211),
    ("Matterhorn", "Cervino|Monte Cervino|Mont Cervin", "CH", 7.6586, 45.9763),
    ("Atomium", "", "BE", 4.3413, 50.8949),
    ("Manneken Pis", "", "BE", 4.3500, 50.8450),
    ("Anne Frank House",
     "Anne Frank Huis|Casa de Ana Frank|Casa de Anne Frank|Maison d'Anne Frank|"
     "Anne-Frank-Haus", "NL", 4.8840, 52.3752),
    ("Rijksmuseum", "", "NL", 4.8852, 52.3600),
    ("Acropolis",
     "Acrópolis|Acrópole|Acropole|Akropolis|"
     "Parthenon|Partenón|Pártenon|Parthénon", "GR", 23.7257, 37.9715),
    ("Meteora", "Metéora|Météores", "GR", 21.6306, 39.7217),
    ("Hagia Sophia", "Santa Sofía|Sainte-Sophie|Ayasofya", "TR", 28.9801, 41.0086),
    ("Blue Mosque",
     "Sultan Ahmed Mosque|Mezquita Azul|"
     "Mesquita Azul|Mosquée bleue|Blaue Moschee", "TR", 28.9768, 41.0054),
    ("Red Square", "Plaza Roja|Praça Vermelha|Place Rouge|Roter Platz", "RU", 37.6208, 55.7539),
    ("Kremlin",
     "Moscow Kremlin|Kremlin de Moscú|"
     "Kremlin de Moscou|Moskauer Kreml|Kreml", "RU", 37.6176, 55.7520),
    ("Saint Basil's Cathedral",
     "St Basil's Cathedral|Catedral de San Basilio|Catedral de São Basílio|"
     "Cathédrale Saint-Basile-le-Bienheureux|Basilius-Kathedrale", "RU", 37.6231, 55.7525),
    ("Hermitage Museum",
     "State Hermitage|Museo del Hermitage|"
     "Museu Hermitage|Musée de l'Ermitage|Eremitage", "RU", 30.3146, 59.9398),
    ("Charles Bridge",
     "Karlův most|Puente de Carlos|Ponte Carlos|Pont Charles|Karlsbrücke", "CZ", 14.4114, 50.0865),
    ("Prague Castle",
     "Pražský hrad|Castillo de Praga|"
     "Castelo de Praga|Château de Prague|Prager Burg", "CZ", 14.4005, 50.0911),
    ("Schönbrunn Palace",
     "Schloss Schönbrunn|Palacio de Schönbrunn|Palácio de Schönbrunn|Château de Schönbrunn|"
     "Schönbrunn", "AT", 16.3122, 48.1845),
    ("Plitvice Lakes",
     "Plitvice|Lagos de Plitvice|Lacs de Plitvice|Plitvicer Seen", "HR", 15.5820, 44.8654),
    ("Bran Castle",
     "Castillo de Bran|Castelo de Bran|"
     "Château de Bran|Dracula's Castle|Törzburg", "RO", 25.3672, 45.5149),
    ("Auschwitz", "Auschwitz-Birkenau", "PL", 19.2033, 50.0359),
    ("Pyramids of Giza",
     "Great Pyramid of Giza|Giza Pyramids|Great Pyramid|Pyramids|Pirámides de Guiza|"
     "Pirámides de Giza|Pirâmides de Gizé|"
     "Pyramides de Gizeh|Pyramiden von Gizeh", "EG", 31.1342, 29.9792),
    ("Great Sphinx of Giza",
     "Sphinx|Great Sphinx|Esfinge|Esfinge de Guiza|Esfinge de Gizé|Sphinx de Gizeh|"
     "Sphinx von Gizeh", "EG", 31.1376, 29.9753),
    ("Valley of the Kings",
     "Valle de los Reyes|Vale dos Reis|Vallée des Rois|Tal der Könige", "EG", 32.6014, 25.7402),
    ("Abu Simbel", "", "EG", 31.6256, 22.3372),
    ("Petra", "", "JO", 35.4444, 30.3285),
    ("Western Wall",
     "Wailing Wall|Muro de las Lamentaciones|Muro das Lamentações|Mur des Lamentations|"
     "Klagemauer", "IL", 35.2342, 31.7767),
    ("Kaaba", "Masjid al-Haram|Great Mosque of Mecca", "SA", 39.8262, 21.4225),
    ("Burj Khalifa", "", "AE", 55.2744, 25.1972),
    ("Sheikh Zayed Grand Mosque", "Sheikh Zayed Mosque", "AE", 54.4744, 24.4128),
    ("Taj Mahal", "Tadsch Mahal", "IN", 78.0421, 27.1751),
    ("Golden Temple", "Harmandir Sahib", "IN", 74.8765, 31.6200),
    ("Gateway of India", "Puerta de la India|Porte de l'Inde", "IN", 72.8347, 18.9220),
    ("India Gate", "", "IN", 77.2295, 28.6129),
    ("Mount Everest", "Everest|Monte Everest|Mont Everest|Chomolungma", "NP", 86.9250, 27.9881),
    ("Great Wall of China",
     "Great Wall|Gran Muralla China|Gran Muralla|Muralla China|Grande Muralha da China|"
     "Grande Muraille de Chine|Grande Muraille|Chinesische Mauer", "CN", 116.3000, 40.3900),
    ("Forbidden City",
     "Ciudad Prohibida|Cidade Proibida|Cité interdite|Verbotene Stadt", "CN", 116.3972, 39.9163),
    ("Tiananmen Square",
     "Tiananmen|Plaza de Tiananmén|Praça da Paz Celestial|Praça Tiananmen|Place Tian'anmen|"
     "Platz des Himmlischen Friedens", "CN", 116.3912, 39.9055),
    ("Terracotta Army",
     "Terracotta Warriors|Guerreros de terracota|Ejército de terracota|"
     "Exército de Terracota|Guerreiros de Terracota|"
     "Armée de terre cuite|Terrakotta-Armee", "CN", 109.2785, 34.3853),
    ("Potala Palace",
     "Potala|Palacio de Potala|"
     "Palácio de Potala|Palais du Potala|Potala-Palast", "CN", 91.1172, 29.6578),
    ("Mount Fuji",
     "Fuji|Fujisan|Fuji-san|Fujiyama|Monte Fuji|Mont Fuji|Fudschijama", "JP", 138.7274, 35.3606),
    ("Tokyo Tower", "Torre de Tokio|Torre de Tóquio|Tour de Tokyo", "JP", 139.7454, 35.6586),
    ("Kinkaku-ji", "Golden Pavilion|Kinkakuji", "JP", 135.7292, 35.0394),
    ("Fushimi Inari Taisha", "Fushimi Inari", "JP", 135.7727, 34.9671),
    ("Angkor Wat", "Angkor", "KH", 103.8670, 13.4125),
    ("Ha Long Bay",
     "Halong Bay|Bahía de Ha Long|"
     "Baía de Ha Long|Baie d'Ha Long|Halong-Bucht", "VN", 107.1839, 20.9101),
    ("Shwedagon Pagoda", "Shwedagon", "MM", 96.1497, 16.7983),
    ("Borobudur", "", "ID", 110.2038, -7.6079),
    ("Petronas Towers",
     "Petronas Twin Towers|Torres Petronas|Tours Petronas|Petronas-Türme", "MY", 101.7117, 3.1579),
    ("Marina Bay Sands", "", "SG", 103.8610, 1.2834),
    ("Sydney Opera House",
     "Ópera de Sídney|Ópera de Sydney|"
     "Opéra de Sydney|Opernhaus Sydney|Sydney-Opernhaus", "AU", 151.2153, -33.8568),
    ("Sydney Harbour Bridge",
     "Harbour Bridge|Puente de la Bahía de Sídney", "AU", 151.2108, -33.8523),
    ("Uluru", "Ayers Rock", "AU", 131.0369, -25.3444),
    ("Milford Sound", "", "NZ", 167.9263, -44.6414),
    ("Hobbiton", "", "NZ", 175.6830, -37.8721),
    ("Table Mountain",
     "Montaña de la Mesa|Montanha da Mesa|"
     "Montagne de la Table|Tafelberg", "ZA", 18.4039, -33.9628),
    ("Victoria Falls",
     "Cataratas Victoria|Cataratas Vitória|"
     "Chutes Victoria|Victoriafälle", "ZW", 25.8572, -17.9243),
    ("Mount Kilimanjaro",
     "Kilimanjaro|Monte Kilimanjaro|"
     "Kilimanyaro|Kilimandjaro|Kilimandscharo", "TZ", 37.3556, -3.0674),
    ("Serengeti", "Serengeti National Park|Parque Nacional del Serengeti", "TZ", 34.8333, -2.3333),
    ("Hassan II Mosque",
     "Mezquita Hassan II|Mesquita Hassan II|Mosquée Hassan-II", "MA", -7.6327, 33.6085),
    ("Jemaa el-Fnaa", "Jemaa el-Fna|Djemaa el-Fna|Plaza Jemaa el-Fna", "MA", -7.9894, 31.6258),
    ("Cape St. Vincent",
     "Cabo de São Vicente|Cape Saint Vincent|Cabo de San Vicente|Cap Saint-Vincent",
     "PT", -8.9969, 37.0227),
    ("Ponta da Piedade", "", "PT", -8.6689, 37.0806),
    ("Sagres Fortress", "Sagres|Fortaleza de Sagres|Ponta de Sagres|Sagres Point", "PT", -8.9486,
     37.0011),
    ("Serra de Monchique", "Monchique|Fóia|Foia|Monchique mountains", "PT", -8.5947, 37.3158),
    ("Benagil Cave", "Benagil|Algar de Benagil|Gruta de Benagil", "PT", -8.4266, 37.0873),
    ("Serra da Estrela", "Sierra de la Estrella", "PT", -7.6114, 40.3217),
    ("Peneda-Gerês National Park",
     "Peneda-Gerês|Peneda Geres|Gerês|Parque Nacional da Peneda-Gerês", "PT", -8.15, 41.75),
]  # fmt: skip
